import CueKit
import CueKitCast
import CueKitConversion
import CueKitHLS
import Foundation

extension TrackConversionCache {
    /// One conversion as it runs on the pool: the source, the style, and what it becomes.
    struct Job: Sendable {
        var source: String
        var style: TextTrackStyle?
        var product: ConvertedProduct
        /// What a rendition's segment URIs carry after `?`.
        var segmentQuery: String

        /// Runs the conversion into `path` (a file, or a rendition's folder), all or nothing, with
        /// the engine `cuekit convert` and `cuekit segment` use (``TrackConversion``: cues in
        /// start-time order); returns `N cues, E errors, W warnings` (and the segments). A track
        /// that yields errors and no cue is refused (`422`) with its first diagnostics.
        func write(to path: String) throws -> String {
            let reader: TrackSource
            do {
                reader = try TrackSource(path: source)
            } catch let error as ReadError {
                throw Refusal(status: .internalServerError, message: error.description)
            }
            var tally = Tally()
            let conversion = TrackConversion(source: reader, options: .init(format: .webVTT, style: style))
            do {
                let cues: Int
                var segments = ""
                switch product {
                case .webVTT:
                    let outcome = try conversion.write(toFileAt: path) { tally.count($0.diagnostic) }
                    cues = outcome.cuesWritten
                    for diagnostic in outcome.styleDiagnostics { tally.count(diagnostic) }
                case .hlsRendition(let segmentDuration, let mpegTimestamp):
                    let options = ConvertedProduct.segmentOptions(
                        segmentDuration: segmentDuration, mpegTimestamp: mpegTimestamp, query: segmentQuery)
                    let segmentation = HLSSegmentation(conversion: conversion, segments: options, playlistName: ConvertedProduct.playlistName)
                    let outcome = try segmentation.write(toFolder: path) { tally.count($0.diagnostic) }
                    cues = outcome.counts.cues
                    segments = " in \(outcome.counts.segments) segments"
                }
                guard cues > 0 || tally.errors == 0 else {
                    TrackConversionCache.remove(path)
                    throw Refusal(
                        status: .unprocessableContent,
                        message: "the track has errors and no cue to show:\n" + tally.firstErrors.joined(separator: "\n") + "\n")
                }
                return "\(cues) cues\(segments), \(tally.errors) errors, \(tally.warnings) warnings"
            } catch let error as ReadError {
                throw Refusal(status: .unprocessableContent, message: "\(error.description)\n")
            } catch let error as HLSSegmentingError {
                throw Refusal(status: .unprocessableContent, message: "\(error.description)\n")
            }
        }
    }

    /// Errors and warnings a conversion reported, with the first errors' text.
    private struct Tally {
        var errors = 0
        var warnings = 0
        var firstErrors: [String] = []

        mutating func count(_ diagnostic: Diagnostic) {
            switch diagnostic.severity {
            case .error:
                errors += 1
                if firstErrors.count < TrackConversionCache.reportedErrors { firstErrors.append(diagnostic.description) }
            case .warning: warnings += 1
            default: break
            }
        }
    }

    /// How many of a refused track's errors its answer lists.
    static let reportedErrors = 20

    /// The bytes a conversion holds: its file's size, or the sizes of the files in its folder.
    static func bytes(at path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return Int(info.st_size) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.reduce(0) { total, name in
            var entry = stat()
            return total + (stat(path + "/" + name, &entry) == 0 ? Int(entry.st_size) : 0)
        }
    }

    /// Removes a conversion's file, or its folder and what it holds.
    static func remove(_ path: String) {
        if unlink(path) != 0, errno == EISDIR || errno == EPERM {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
