import CueKit
import CueKitConversion

/// One track written as an HLS WebVTT subtitle rendition: a folder with a media playlist and its
/// segments, from any format CueKit reads, with the edits and Cast style of a `TrackConversion`.
///
/// The track goes through the conversion engine (read, edited, styled, put in start-time order)
/// into an ``HLSSegmenter`` writing into an ``HLSFolderDestination``, so the folder is replaced all
/// at once or not at all. The conversion's first pass feeds the segmenter
/// (`TrackConversion/stream(directlyInto:report:)`); when cues came too late for its ordering
/// window, the track is converted through a file and segmented again
/// (`TrackConversion/stream(convertedInto:report:)`), as it is from standard input.
///
/// ```swift
/// var segmentation = HLSSegmentation(conversion: TrackConversion(source: try TrackSource(path: "en.srt")))
/// segmentation.segments.timestampMap = WebVTTTimestampMap(mpegTimestamp: try HLSMediaAlignment.mpegTimestamp(alignedTo: "video.m3u8"))
/// let outcome = try segmentation.write(toFolder: "subs/en")
/// print(outcome.counts.segments, outcome.playlistPath)
/// ```
public struct HLSSegmentation: Sendable {
    /// The track and its edits (`TrackConversion/Options/format` is ignored: segments are WebVTT).
    public var conversion: TrackConversion
    /// How segments are cut, named and mapped.
    public var segments: HLSSegmentOptions
    /// The media playlist's file name. Default: `subs.m3u8`.
    public var playlistName: String

    /// A segmentation of `conversion`'s track.
    public init(conversion: TrackConversion, segments: HLSSegmentOptions = HLSSegmentOptions(), playlistName: String = "subs.m3u8") {
        self.conversion = conversion
        self.segments = segments
        self.playlistName = playlistName
    }

    /// What a segmentation did.
    public struct Outcome: Sendable {
        /// What the conversion did (input errors, edits, reordering).
        public var conversion: TrackConversion.Outcome
        /// What was written.
        public var counts: HLSSegmentCounts
        /// The media playlist written.
        public var playlistPath: String
    }

    /// Writes the rendition into `folder` (made if missing; its parent must exist), replacing the
    /// playlist and segments of an earlier run. Diagnostics go to `report` as they are found.
    /// Throws the source's `ReadError`, a `WriteError`, or an ``HLSSegmentingError``; the
    /// folder is then left as it was.
    @discardableResult
    public func write(toFolder folder: String, report: (ConversionDiagnostic) -> Void = { _ in }) throws -> Outcome {
        var destination = try HLSFolderDestination(folder: folder, playlistName: playlistName)
        var segmenter = HLSSegmenter(options: segments, to: destination)
        var converted: TrackConversion.Outcome
        var streamed: TrackConversion.Outcome?
        var reportedAlready = 0
        if conversion.streamsDirectly {
            // The first pass feeds the segmenter; only cues too late for the ordering window make
            // the track go through a file and be segmented again.
            switch try conversion.stream(directlyInto: &segmenter, report: report) {
            case .streamed(let outcome):
                streamed = outcome
            case .needsSecondPass(let inputDiagnosticsReported):
                reportedAlready = inputDiagnosticsReported
                destination.discard()
                destination = try HLSFolderDestination(folder: folder, playlistName: playlistName)
                segmenter = HLSSegmenter(options: segments, to: destination)
            }
        }
        if let streamed {
            converted = streamed
        } else {
            // What the first pass reported about the input is not reported again.
            var inputDiagnostics = 0
            converted = try conversion.stream(convertedInto: &segmenter) { diagnostic in
                if diagnostic.origin == .input {
                    inputDiagnostics += 1
                    if inputDiagnostics <= reportedAlready { return }
                }
                report(diagnostic)
            }
        }
        try segmenter.finish()
        for diagnostic in segmenter.diagnostics { report(ConversionDiagnostic(diagnostic, origin: .output)) }
        try destination.commit()
        let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return Outcome(conversion: converted, counts: segmenter.counts, playlistPath: trimmed + "/" + playlistName)
    }
}
