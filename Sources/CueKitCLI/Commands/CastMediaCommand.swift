import ArgumentParser
#if canImport(FoundationEssentials)
    // FoundationEssentials, not Foundation: the cuekit binary links no more of it than it uses.
    import FoundationEssentials
#else
    import Foundation
#endif
import CueKit
import CueKitCast
import CueKitCommandSupport
import CueKitHLS

/// `cuekit cast media TRACK...`: the media information of a LOAD message, with a text track per
/// caption file, as Cast JSON.
struct CastMediaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media",
        abstract: "Build the LOAD message (or its media information) for a media item and its caption files.",
        discussion: """
            Each TRACK becomes a TEXT track, with ids from --first-id in the order given. The content type comes \
            from the file's extension; the language, label and kind from --language/--name/--subtype (given once \
            per track, in order), else from the file's WebVTT header (Language:, Label:, Kind:) or its name \
            (movie.pt-BR.vtt, movie.en.sdh.vtt). The first track is on at load unless --active says otherwise \
            (--active none: no track). The LOAD carries --request-id, 1 by default.

            --base-url is where the files are served, such as a folder served by cuekit serve (behind HTTPS for \
            a real receiver): a WebVTT track is BASE/NAME; a SubRip or TTML track is BASE/tracks/NAME?as=vtt, \
            which cuekit serve answers as WebVTT, the only format a receiver draws; a relative --content-id is \
            made absolute against it too. A --content-id naming a local multivariant playlist adds its subtitle \
            renditions as text tracks (the group of its first variant), each as BASE/tracks/PLAYLIST?as=vtt, the \
            rendition joined into one WebVTT file: Chromium plays HLS video but draws no subtitle rendition itself; \
            its default rendition is on at load when no TRACK is given. The message is checked as a receiver would check it: problems go to \
            standard error and make the exit status 1, and the JSON is printed all the same.

            Examples:
              cuekit cast media --base-url https://cdn.example --content-id a.m3u8 \\
                a.en.vtt a.fr.vtt
              cuekit cast media --base-url https://cdn.example --content-id a.webm a.en.srt
              cuekit cast media --base-url https://cdn.example --content-id a.mp4 s.srt \\
                --language de --name Deutsch --media-only
            """
    )

    @Argument(help: ArgumentHelp("Caption files (WebVTT, TTML, SubRip).", valueName: "track"))
    var tracks: [String] = []

    @Option(help: ArgumentHelp("The media's contentId, usually its URL.", valueName: "id"))
    var contentID: String

    @Option(help: ArgumentHelp("The media URL, when the content id is not one.", valueName: "url"))
    var contentUrl: String?

    @Option(help: ArgumentHelp("The media's MIME type (by default, from the content id's extension).", valueName: "type"))
    var contentType: String?

    @Option(
        help: ArgumentHelp("buffered, live or none.", valueName: "type"),
        transform: { try StyleOptions.value($0, of: MediaInformation.StreamType.self) }
    )
    var streamType: MediaInformation.StreamType = .buffered

    @Option(help: ArgumentHelp("The duration in seconds (-1 for live).", valueName: "seconds"))
    var duration: Double?

    @Option(
        help: ArgumentHelp(
            "HLS media: how its (audio) segments are packed: \(MediaInformation.HLSSegmentFormat.allCases.map(\.rawValue).joined(separator: ", ")) (by default, read from the playlist when the content id names a local .m3u8 file).",
            valueName: "format"),
        transform: { try StyleOptions.value($0, of: MediaInformation.HLSSegmentFormat.self) }
    )
    var hlsSegmentFormat: MediaInformation.HLSSegmentFormat?

    @Option(
        help: ArgumentHelp(
            "HLS media: how its video segments are packed: mpeg2_ts or fmp4 (by default, read from the playlist as above).",
            valueName: "format"),
        transform: { try StyleOptions.value($0, of: MediaInformation.HLSVideoSegmentFormat.self) }
    )
    var hlsVideoSegmentFormat: MediaInformation.HLSVideoSegmentFormat?

    @Option(help: ArgumentHelp("A title, written as generic metadata.", valueName: "text"))
    var title: String?

    @Option(
        help: ArgumentHelp(
            "The URL the files are served from (cuekit serve's address): WebVTT tracks are URL/NAME, others URL/tracks/NAME?as=vtt "
                + "(by default, the path as given).",
            valueName: "url"
        )
    )
    var baseURL: String?

    @Option(help: ArgumentHelp("A track's language (BCP 47), once per track in order.", valueName: "tag"))
    var language: [String] = []

    @Option(help: ArgumentHelp("A track's name for sender menus, once per track in order.", valueName: "text"))
    var name: [String] = []

    @Option(
        help: ArgumentHelp(
            "A track's kind, once per track in order: subtitles, captions, descriptions, chapters or metadata.", valueName: "kind"),
        transform: { try StyleOptions.value($0, of: MediaTrack.TextTrackType.self) }
    )
    var subtype: [MediaTrack.TextTrackType] = []

    @Option(help: ArgumentHelp("The id of the first track; the others follow.", valueName: "id"))
    var firstID = 1

    @Option(
        help: ArgumentHelp(
            "A track id to switch on at load (repeat or separate with commas); 'none' for no track (by default, the first).",
            valueName: "id"),
        transform: { text in
            if text == "none" { return [] }
            return try text.split(separator: ",").map { part in
                guard let id = Int(part.filter { $0 != " " }) else { throw ValidationError("'\(part)' is not a track id") }
                return id
            }
        }
    )
    var active: [[Int]] = []

    @Option(help: ArgumentHelp("The LOAD message's requestId (1 by default).", valueName: "id"))
    var requestID: Int?

    @Flag(help: "Print the media information alone, not the LOAD message.")
    var mediaOnly = false

    @Flag(help: "Print the JSON on one line.")
    var compact = false

    @Option(
        name: [.short, .customLong("output")], help: ArgumentHelp("Write the JSON to a file ('-' for standard output).", valueName: "file"))
    var output = "-"

    @OptionGroup(title: "Text track style")
    var style: StyleOptions

    func validate() throws {
        if language.count > tracks.count { throw ValidationError("--language is given \(language.count) times for \(tracks.count) tracks") }
        if name.count > tracks.count { throw ValidationError("--name is given \(name.count) times for \(tracks.count) tracks") }
        if subtype.count > tracks.count { throw ValidationError("--subtype is given \(subtype.count) times for \(tracks.count) tracks") }
        if mediaOnly && (!active.isEmpty || requestID != nil) {
            throw ValidationError("--active and --request-id belong to the LOAD message; they cannot go with --media-only")
        }
    }

    /// `base` and `path` joined with one `/`.
    static func joined(_ base: String, _ path: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + path.drop { $0 == "/" }
    }

    /// True when `url` has a scheme (`https:`, `data:`; RFC 3986, section 3.1) or is `//host…`.
    static func isAbsolute(_ url: String) -> Bool {
        if url.hasPrefix("//") { return true }
        guard let colon = url.firstIndex(of: ":"), let first = url.first, first.isASCII, first.isLetter else { return false }
        return url[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    /// A file name as a URL path segment: every byte but the unreserved ones (RFC 3986) escaped.
    static func escaped(_ name: String) -> String {
        var text = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                text += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }
        }
        return text
    }

    func run() throws {
        var mediaTracks: [MediaTrack] = []
        for (index, path) in tracks.enumerated() {
            let hints = try CaptionFileHints.read(path)
            let fileName = Self.escaped(path.split(separator: "/").last.map(String.init) ?? path)
            var contentType = hints.contentType
            var contentID = path
            if let baseURL {
                if hints.contentType == TrackFormat.webVTT.mediaType {
                    contentID = Self.joined(baseURL, fileName)
                } else {
                    // Served converted: cuekit serve answers /tracks/NAME?as=vtt as WebVTT.
                    contentID = Self.joined(baseURL, "tracks/" + fileName + "?as=vtt")
                    contentType = TrackFormat.webVTT.mediaType
                }
            }
            let language = index < self.language.count ? self.language[index] : hints.language
            mediaTracks.append(
                MediaTrack(
                    trackID: firstID + index,
                    type: .text,
                    subtype: index < subtype.count ? subtype[index] : hints.kind ?? .subtitles,
                    trackContentID: contentID,
                    trackContentType: contentType,
                    name: index < name.count ? name[index] : hints.label ?? language,
                    language: language
                )
            )
        }
        let resolvedStyle = try style.resolve()
        // HLS media given as a local playlist: its packing is read from its segments.
        var hlsFormats = (segment: hlsSegmentFormat, video: hlsVideoSegmentFormat)
        // (A content id that names no local file is a URL path on the server: nothing to read.)
        if contentID.lowercased().hasSuffix(".m3u8"), !Self.isAbsolute(contentID), FileManager.default.fileExists(atPath: contentID),
            hlsFormats.segment == nil || hlsFormats.video == nil
        {
            let read = try HLSMediaPackaging.segmentFormats(ofPlaylistAt: contentID)
            hlsFormats = (hlsFormats.segment ?? read.segment, hlsFormats.video ?? read.video)
        }
        // A local multivariant playlist's subtitle renditions: tracks a receiver page can draw.
        var defaultRenditionID: Int?
        if contentID.lowercased().hasSuffix(".m3u8"), !Self.isAbsolute(contentID), FileManager.default.fileExists(atPath: contentID) {
            let renditions = HLSRenditionTracks.listing(
                ofPlaylistAt: contentID, servedAs: contentID.hasPrefix("./") ? String(contentID.dropFirst(2)) : contentID, baseURL: baseURL,
                firstID: firstID + mediaTracks.count)
            mediaTracks += renditions.tracks
            defaultRenditionID = renditions.defaultTrackID
            for reason in renditions.skipped { StandardError.write("\(contentID): warning: \(reason)\n") }
        }
        let contentExtension = contentID.split(separator: "?").first?.split(separator: ".").last.map { $0.lowercased() } ?? ""
        var contentID = self.contentID
        if let baseURL, !Self.isAbsolute(contentID) {
            contentID = Self.joined(baseURL, contentID.hasPrefix("./") ? String(contentID.dropFirst(2)) : contentID)
        }
        let media = MediaInformation(
            contentID: contentID,
            contentUrl: contentUrl,
            contentType: contentType ?? CaptionFileHints.contentTypes[contentExtension],
            streamType: streamType,
            duration: duration,
            metadata: title.map { ["metadataType": 0, "title": .string($0)] },
            tracks: mediaTracks.isEmpty ? nil : mediaTracks,
            textTrackStyle: resolvedStyle?.style,
            hlsSegmentFormat: hlsFormats.segment,
            hlsVideoSegmentFormat: hlsFormats.video
        )
        // The first text track is on unless --active says otherwise.
        // (Of renditions alone, the playlist's default.)
        let firstTrack = tracks.isEmpty ? defaultRenditionID ?? mediaTracks.first?.trackID : mediaTracks.first?.trackID
        let activeIDs = active.isEmpty ? firstTrack.map { [$0] } ?? [] : active.flatMap { $0 }
        let request = CastLoadRequest(
            requestID: requestID ?? 1, media: media, activeTrackIDs: mediaTracks.isEmpty && active.isEmpty ? nil : activeIDs)
        let json = mediaOnly ? media.json : request.json
        let text = json.serialized(compact ? .compact : .pretty) + "\n"
        try OutputSink.write(text, to: output)

        let diagnostics = mediaOnly ? media.validate() : request.validate()
        // Each problem names the message written, and its place in it.
        let written = output == "-" ? "<stdout>" : output
        for diagnostic in diagnostics { StandardError.write(diagnostic.formatted(file: written) + "\n") }
        let errors = diagnostics.filter { $0.severity == .error }.count
        if errors > 0 {
            throw CommandFailure(
                "the message has \(CastCheckCommand.count(errors, "error")); a receiver would refuse it", status: .invalidInput)
        }
    }
}
