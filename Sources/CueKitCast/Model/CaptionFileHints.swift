import CueKit

/// What a caption file says about itself that a Cast track needs: its MIME type, language, label and
/// kind, read from its name and its WebVTT header.
///
/// Files carry these in two common ways: a header in the legacy metadata style of early WebVTT
/// drafts (`Kind: captions`, `Language: en`, still written by many tools; section 4.1 of W3C WebVTT
/// keeps any such text in the header), and names such as `movie.en.vtt`, `movie.pt-BR.sdh.vtt`.
/// Header lines win over the name.
public struct CaptionFileHints: Sendable, Hashable {
    /// The MIME type for the file's format, from its extension (`text/vtt` for `.vtt`).
    public var contentType: String?
    /// A BCP 47 language tag.
    public var language: String?
    /// A human-readable label (`Label:` or `Title:` in the header).
    public var label: String?
    /// The kind of text (`Kind:` in the header; `sdh` or `cc` in the name mean captions).
    public var kind: MediaTrack.TextTrackType?

    /// Creates hints.
    public init(contentType: String? = nil, language: String? = nil, label: String? = nil, kind: MediaTrack.TextTrackType? = nil) {
        self.contentType = contentType
        self.language = language
        self.label = label
        self.kind = kind
    }

    /// Reads the hints of a file from its name (or path) and, for WebVTT, its header text (see
    /// ``CueKit/Track/header``).
    public init(fileName: String, webVTTHeader: String? = nil) {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        var segments = name.split(separator: ".").map { String($0) }
        let fileExtension = segments.count > 1 ? segments.removeLast().lowercased() : ""
        self.init(contentType: Self.contentTypes[fileExtension])
        for segment in segments.dropFirst().reversed() {
            let lowered = segment.lowercased()
            if lowered == "sdh" || lowered == "cc" {
                kind = kind ?? .captions
            } else if language == nil, Self.looksLikeLanguage(segment) {
                language = segment
            }
        }
        guard let header = webVTTHeader else { return }
        for line in header.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingSpaces().lowercased()
            let value = String(line[line.index(after: colon)...].trimmingSpaces())
            guard !value.isEmpty else { continue }
            switch key {
            case "language", "lang": language = value
            case "label", "title": label = value
            case "kind": kind = MediaTrack.TextTrackType(rawValue: value.uppercased()) ?? kind
            default: break
            }
        }
    }

    /// MIME types by file extension: the track formats (``TrackFormat/mediaType``), and the media
    /// containers `cuekit cast media` is given as content.
    public static let contentTypes: [String: String] = Dictionary(
        TrackFormat.allCases.flatMap { format in format.fileExtensions.map { ($0, format.mediaType) } }, uniquingKeysWith: { first, _ in first }
    ).merging(containerTypes) { track, _ in track }

    private static let containerTypes: [String: String] = [
        "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm",
        "mkv": "video/x-matroska", "m3u8": "application/x-mpegurl", "mpd": "application/dash+xml",
        "ism": "application/vnd.ms-sstr+xml", "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac",
        "ogg": "audio/ogg", "flac": "audio/flac", "wav": "audio/wav",
    ]

    /// A name segment that is a language tag with a 2- or 3-letter language (`en`, `pt-BR`,
    /// `zh-Hant`), not a word that happens to be well-formed (`final`).
    static func looksLikeLanguage(_ segment: String) -> Bool {
        let primary = segment.split(separator: "-").first ?? ""
        return (2...3).contains(primary.count) && LanguageTag.isWellFormed(segment)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
