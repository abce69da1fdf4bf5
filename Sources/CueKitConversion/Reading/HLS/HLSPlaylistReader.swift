import CueKit
import CueKitWebVTT

/// Reads an HLS subtitle rendition as one track: every WebVTT segment of its media playlist in
/// turn, each cue moved onto the first segment's timeline by the segments' `X-TIMESTAMP-MAP`s, and
/// the cues a segmenter repeats in every segment they overlap joined back into one.
///
/// RFC 8216, section 3.5: a segment's map says which MPEG-2 presentation time (90 kHz, wrapping
/// at 2^33) its cue time `LOCAL` falls on; a segment without one maps cue time 0 to MPEGTS 0. A cue
/// of segment *i* is read at `time − LOCALᵢ + (MPEGTSᵢ − MPEGTS₀) / 90 + LOCAL₀` milliseconds, the
/// MPEGTS difference taken the short way round the 33-bit clock. The joined track writes no map.
///
/// A cue is a repeat when the segment before held the same cue (text, settings, identifier and
/// mapped times): only consecutive segments are compared, so memory holds one segment's cues.
/// Segments are local files named relative to the playlist; `http(s)` URIs are refused.
public struct HLSPlaylistReader: Sendable {
    /// The playlist's path (`-`: its text came from standard input; URIs are then relative to the
    /// working folder).
    public var path: String
    /// How each segment is read.
    public var options: TrackSource.Options

    /// The most cues of one segment remembered to find repeats in the next (a bound on memory;
    /// a segment with more has the rest passed on as they are, reported once).
    public static let maximumRememberedCues = 100_000

    public init(path: String, options: TrackSource.Options) {
        self.path = path
        self.options = options
    }

    /// Reads the playlist file at ``path`` in two passes, keeping none of its segments: the first
    /// checks it and learns what is wrong with it as a whole (a malformed playlist is refused
    /// before anything is handed on), the second reads each segment as it is listed. A playlist
    /// of any length takes the same memory. Refuses a file over `maximumBytes`.
    public func stream(maximumBytes: Int, to handler: (TrackEvent) throws -> Void) throws {
        if let size = FileByteSource.regularFileSize(atPath: path), size > maximumBytes {
            throw ReadError(.hlsPlaylistMalformed, at: .start, "the playlist is longer than \(maximumBytes) bytes")
        }
        try stream(Lines.file(path), playlistPath: path, to: handler)
    }

    /// Reads the playlist `text`: a media playlist, or a multivariant one whose rendition
    /// ``TrackSource/Options/hlsRendition`` picks.
    public func stream(text: String, to handler: (TrackEvent) throws -> Void) throws {
        try stream(Lines.text(text), playlistPath: path, to: handler)
    }

    /// Where a playlist's lines come from: a file, read again for each pass, or text in memory.
    private enum Lines {
        case file(String)
        case text(String)

        /// Reads every line; hands on each segment listed. Returns the playlist, its segments left out.
        func scan(_ segment: (HLSMediaPlaylist.Segment) throws -> Void) throws -> HLSPlaylist {
            var parser = HLSPlaylistParser()
            var lines = HLSPlaylistLines()
            func take(_ line: UnsafeRawBufferPointer) throws {
                if let listed = try parser.take(line) { try segment(listed) }
            }
            switch self {
            case .file(let path):
                try FileByteSource(path: path).forEachChunk { try lines.feed($0, take) }
            case .text(var text):
                try text.withUTF8 { try lines.feed(UnsafeRawBufferPointer($0), take) }
            }
            try lines.finish(take)
            return try parser.finish()
        }
    }

    private func stream(_ lines: Lines, playlistPath: String, to handler: (TrackEvent) throws -> Void) throws {
        switch try lines.scan({ _ in }) {
        case .media(let media):
            try stream(media, lines, playlistPath: playlistPath, rewritingDiagnostics: handler)
        case .multivariant(let listing):
            let rendition = try listing.rendition(named: options.hlsRendition)
            let mediaPath = try resolve(rendition.uri ?? "", from: playlistPath, line: rendition.line)
            let mediaLines = Lines.file(mediaPath)
            let parsed: HLSPlaylist
            do {
                parsed = try mediaLines.scan { _ in }
            } catch let error as ReadError {
                throw error.inFile(mediaPath)
            }
            guard case .media(let media) = parsed else {
                throw ReadError(
                    .hlsPlaylistMalformed, at: SourceLocation(line: rendition.line, column: 1),
                    "the rendition's URI names a multivariant playlist, not a media playlist")
            }
            // The media playlist's own diagnostics are located at the rendition's line, their
            // place in the media playlist in their message.
            let mediaName = rendition.uri ?? mediaPath
            var listingProblems = listing.problems
            do {
                try stream(media, mediaLines, playlistPath: mediaPath, rewritingDiagnostics: { event in
                    guard case .diagnostic(var diagnostic) = event else {
                        try handler(event)
                        if case .header = event {
                            for problem in listingProblems { try handler(.diagnostic(problem)) }
                            listingProblems = []
                        }
                        return
                    }
                    diagnostic.message = "\(mediaName):\(diagnostic.location.map { "\($0): " } ?? " ")" + diagnostic.message
                    diagnostic.location = SourceLocation(line: rendition.line, column: 1)
                    try handler(.diagnostic(diagnostic))
                })
            } catch let error as ReadError where error.path == nil {
                throw error.inFile(mediaPath)
            }
        }
    }

    /// Reads the segments of `media`, listed by `lines` (scanned once already, so the second
    /// scan cannot fail where the first did not).
    private func stream(
        _ media: HLSMediaPlaylist, _ lines: Lines, playlistPath: String, rewritingDiagnostics handler: (TrackEvent) throws -> Void
    ) throws {
        var media = media
        if !media.segmentTally.isSettled {
            // EXT-X-TARGETDURATION came late, or twice: each EXTINF is judged again by its last word.
            var tally = HLSSegmentTally()
            _ = try lines.scan { tally.add($0, target: media.targetDuration) }
            media.segmentTally = tally
        }
        var joiner = HLSSegmentJoiner()
        joiner.passesCues = options.webVTTCueContent != .diagnosticsOnly
        joiner.playlistDiagnostics = media.problems
        var start = 0
        // Byte ranges of one file name it segment after segment: resolved once, opened once.
        var resolved: (uri: String, path: String)?
        let files = HLSSegmentFiles()
        defer { files.closeFile() }
        _ = try lines.scan { segment in
            let segmentPath: String
            if let resolved, resolved.uri == segment.uri {
                segmentPath = resolved.path
            } else {
                segmentPath = try resolve(segment.uri, from: playlistPath, line: segment.line)
                resolved = (segment.uri, segmentPath)
            }
            let file: HLSSegmentFiles.Segment
            let firstBytes: [UInt8]
            do {
                file = try files.segment(segmentPath, range: segment.byteRange)
                firstBytes = segmentPath == playlistPath ? [] : try file.firstBytes()
            } catch let error as ReadError {
                throw ReadError(
                    .hlsSegmentUnreadable, at: SourceLocation(line: segment.line, column: 1),
                    "the segment cannot be read: \(error.diagnostic.message)", path: nil)
            }
            if segmentPath == playlistPath || HLSPlaylist.startsLikePlaylist(firstBytes) {
                throw ReadError(
                    .hlsSegmentUnreadable, at: SourceLocation(line: segment.line, column: 1),
                    "the segment \(segment.uri) is a playlist, not a WebVTT segment")
            }
            // A byte range is named by its bytes, its lines counted from the range's start.
            let segmentName = segment.byteRange.map { "\(segment.uri) (bytes \($0.lowerBound)-\($0.upperBound - 1))" } ?? segment.uri
            // Whole cues, whatever the caller asked: joining and checking compare them.
            let readerOptions = WebVTTReader.Options(diagnostics: options.webVTTDiagnostics, limits: options.webVTTLimits)
            var reader = WebVTTReader(options: readerOptions)
            try joiner.startSegment(uri: segmentName, line: segment.line, start: start, duration: segment.duration, to: handler)
            start += segment.duration
            do {
                try file.forEachChunk { chunk in
                    try reader.feed(chunk) { event in try joiner.take(event, to: handler) }
                }
                try reader.finish { event in try joiner.take(event, to: handler) }
            } catch let error as ReadError {
                let inner = error.diagnostic.location.map { "\(segmentName):\($0): " } ?? "\(segmentName): "
                throw ReadError(error.diagnostic.code, at: SourceLocation(line: segment.line, column: 1), inner + error.diagnostic.message)
            }
        }
        try joiner.finish(to: handler)
    }

    private func resolve(_ uri: String, from playlistPath: String, line: Int) throws -> String {
        try Self.path(ofURI: uri, inPlaylistAt: playlistPath, line: line)
    }

    /// The local path of `uri` as the playlist at `playlistPath` names it: relative to the
    /// playlist's folder, percent-escapes decoded. Throws a `ReadError` located at `line` for a
    /// remote or empty URI. Every reader of playlists resolves URIs through it.
    package static func path(ofURI uri: String, inPlaylistAt playlistPath: String, line: Int) throws -> String {
        let location = SourceLocation(line: line, column: 1)
        let lowered = uri.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            throw ReadError(
                .hlsSegmentUnreadable, at: location, "\(uri) is remote: CueKit reads local segments only; download the rendition first (cuekit fetch)")
        }
        var decoded = uri
        if lowered.hasPrefix("file://") { decoded = String(uri.dropFirst(7)) }
        if decoded.contains("://") { throw ReadError(.hlsSegmentUnreadable, at: location, "\(uri): only local files are read") }
        decoded = Self.percentDecoded(String(decoded.prefix { $0 != "?" && $0 != "#" }))
        guard !decoded.isEmpty else { throw ReadError(.hlsSegmentUnreadable, at: location, "the URI is empty") }
        if decoded.hasPrefix("/") { return decoded }
        let folder: String
        if playlistPath == "-" {
            folder = ""
        } else if let slash = playlistPath.lastIndex(of: "/") {
            folder = String(playlistPath[...slash])
        } else {
            folder = ""
        }
        return folder + decoded
    }

    /// `%XX` escapes decoded (RFC 3986); a malformed escape is kept as written.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
