import CueKit
import CueKitCast
import CueKitConversion
import Foundation
import Hummingbird
import NIOPosix

/// Tracks converted on request: `GET /tracks/NAME?as=vtt&style=STYLE` reads NAME (WebVTT, SubRip
/// or TTML) from the served folder and answers WebVTT with the Cast style baked in.
///
/// A conversion streams from the source to a file in the cache folder, so memory stays bounded
/// whatever the track's size, and the file is then served like any other (ranges, gzip,
/// conditional requests). The cache key, and the entity tag of the answer, is made of the
/// source's identity (device, inode, size, modification time, which is what its own entity tag
/// says) and the style: an unchanged source is converted once, and a client holding the tag gets
/// `304 Not Modified` without any work. `STYLE` is a Cast `TextTrackStyle` as JSON (inline, URL
/// encoded) or the name of a JSON file in the folder: a style, media information or a LOAD whose
/// media has a `textTrackStyle`.
actor TrackConversionCache {
    /// The served folder.
    let files: ConfinedFileSystem
    /// Where converted tracks are kept.
    let cacheFolder: String
    private var summaries: [String: String] = [:]

    init(files: ConfinedFileSystem, cacheFolder: String) {
        self.files = files
        self.cacheFolder = cacheFolder
    }

    /// A converted track ready to serve: its file in the cache folder, its entity tag and what
    /// the conversion reported.
    struct Converted: Sendable {
        let cacheName: String
        let entityTag: String
        let summary: String
    }

    /// A request that cannot be converted: the status and a message for the body.
    struct Refusal: Error {
        let status: HTTPResponse.Status
        let message: String
    }

    /// Converts `name` with `style` (or finds its earlier conversion).
    func convert(name: String, format: String?, style: String?) async throws -> Converted {
        if let format, format.lowercased() != "vtt" && format.lowercased() != "webvtt" {
            throw Refusal(status: .badRequest, message: "as=\(format): tracks are converted to WebVTT only (as=vtt)")
        }
        guard let source = files.confinedPath(name) else {
            throw Refusal(status: .notFound, message: "no track named \(name) in the served folder")
        }
        var info = stat()
        guard stat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw Refusal(status: .notFound, message: "\(name) is not a file")
        }
        let (textTrackStyle, styleKey) = try loadStyle(style)
        let identity = "\(source)\u{0}\(info.st_dev)\u{0}\(info.st_ino)\u{0}\(info.st_size)\u{0}\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\u{0}\(styleKey)"
        let key = Self.hash(identity)
        let cacheName = key + ".vtt"
        let cachePath = cacheFolder + "/" + cacheName
        if let summary = summaries[key], FileManager.default.fileExists(atPath: cachePath) {
            return Converted(cacheName: cacheName, entityTag: "\"\(key)\"", summary: summary)
        }
        let summary = try await NIOThreadPool.singleton.runIfActive {
            try Self.write(source: source, style: textTrackStyle, to: cachePath)
        }
        summaries[key] = summary
        return Converted(cacheName: cacheName, entityTag: "\"\(key)\"", summary: summary)
    }

    /// Runs one conversion into `path`, atomically, with the engine `cuekit convert` uses
    /// (``TrackConversion``: cues in start-time order); returns `N cues, E errors, W warnings`. A
    /// track that yields errors and no cue is refused (`422`) with its first diagnostics.
    private static func write(source: String, style: TextTrackStyle?, to path: String) throws -> String {
        let reader: TrackSource
        do {
            reader = try TrackSource(path: source)
        } catch let error as ReadError {
            throw Refusal(status: .internalServerError, message: error.description)
        }
        var errors = 0, warnings = 0
        var firstErrors: [String] = []
        let conversion = TrackConversion(source: reader, options: .init(format: .webVTT, style: style))
        do {
            let outcome = try conversion.write(toFileAt: path) { found in
                switch found.diagnostic.severity {
                case .error:
                    errors += 1
                    if firstErrors.count < Self.reportedErrors { firstErrors.append(found.diagnostic.description) }
                case .warning: warnings += 1
                default: break
                }
            }
            guard outcome.cuesWritten > 0 || errors == 0 else {
                unlink(path)
                throw Refusal(
                    status: .unprocessableContent,
                    message: "the track has errors and no cue to show:\n" + firstErrors.joined(separator: "\n") + "\n")
            }
            errors += outcome.styleDiagnostics.filter { $0.severity == .error }.count
            warnings += outcome.styleDiagnostics.filter { $0.severity == .warning }.count
            return "\(outcome.cuesWritten) cues, \(errors) errors, \(warnings) warnings"
        } catch let error as ReadError {
            throw Refusal(status: .unprocessableContent, message: "\(error.description)\n")
        }
    }

    /// How many of a refused track's errors its answer lists.
    static let reportedErrors = 20

    /// The style a request names, and its key in the cache.
    private func loadStyle(_ parameter: String?) throws -> (TextTrackStyle?, String) {
        guard let parameter, !parameter.isEmpty else { return (nil, "") }
        let bytes: [UInt8]
        let label: String
        if parameter.first == "{" {
            bytes = Array(parameter.utf8)
            label = "style"
        } else {
            guard let path = files.confinedPath(parameter),
                let data = ConfinedFileSystem.contents(atPath: path, upTo: CastMessage.defaultMaximumLength)
            else {
                throw Refusal(status: .notFound, message: "style=\(parameter): no such JSON file in the served folder")
            }
            guard data.count <= CastMessage.defaultMaximumLength else {
                throw Refusal(status: .badRequest, message: "style=\(parameter): longer than \(CastMessage.defaultMaximumLength) bytes")
            }
            bytes = Array(data)
            label = parameter
        }
        let result = CastMessage.check(bytes)
        let errors = result.diagnostics.filter { $0.severity == .error }
        let style: TextTrackStyle?
        switch result.message {
        case .style(let found): style = found
        case .media(let media): style = media.textTrackStyle
        case .load(let load): style = load.media.textTrackStyle
        case .editTracksInfo(let edit): style = edit.textTrackStyle
        case .mediaStatus(let status): style = status.statuses.first?.media?.textTrackStyle
        case nil: style = nil
        }
        guard errors.isEmpty, let style else {
            let details = errors.map { $0.formatted(file: label) }.joined(separator: "\n")
            throw Refusal(
                status: .badRequest, message: details.isEmpty ? "\(label) holds no textTrackStyle" : details)
        }
        return (style, style.json.serialized(.compact))
    }

    /// 64-bit FNV-1a, as 16 hexadecimal digits: a cache key, not a defence.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
