import ArgumentParser
import CueKit
import CueKitCast
import CueKitCommandSupport

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
            (movie.pt-BR.vtt, movie.en.sdh.vtt). The message is checked as a receiver would check it: problems \
            go to standard error and make the exit status 1, and the JSON is printed all the same.

            Examples:
              cuekit cast media --content-id https://cdn.example.com/a.m3u8 en.vtt fr.vtt
              cuekit cast media --content-id https://cdn.example.com/a.mp4 subs.srt \\
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

    @Option(help: ArgumentHelp("A title, written as generic metadata.", valueName: "text"))
    var title: String?

    @Option(
        help: ArgumentHelp(
            "The URL the track files are served from: each trackContentId is this URL and the file's name (by default, the path as given).",
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
        help: ArgumentHelp("A track id to switch on at load (repeat or separate with commas).", valueName: "id"),
        transform: { text in
            try text.split(separator: ",").map { part in
                guard let id = Int(part.filter { $0 != " " }) else { throw ValidationError("'\(part)' is not a track id") }
                return id
            }
        }
    )
    var active: [[Int]] = []

    @Option(help: ArgumentHelp("The LOAD message's requestId.", valueName: "id"))
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

    func run() throws {
        var mediaTracks: [MediaTrack] = []
        for (index, path) in tracks.enumerated() {
            let hints = try CaptionFileHints.read(path)
            let fileName = path.split(separator: "/").last.map(String.init) ?? path
            let contentID = baseURL.map { $0.hasSuffix("/") ? $0 + fileName : $0 + "/" + fileName } ?? path
            let language = index < self.language.count ? self.language[index] : hints.language
            mediaTracks.append(
                MediaTrack(
                    trackID: firstID + index,
                    type: .text,
                    subtype: index < subtype.count ? subtype[index] : hints.kind ?? .subtitles,
                    trackContentID: contentID,
                    trackContentType: hints.contentType,
                    name: index < name.count ? name[index] : hints.label ?? language,
                    language: language
                )
            )
        }
        let resolvedStyle = try style.resolve()
        let contentExtension = contentID.split(separator: "?").first?.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let media = MediaInformation(
            contentID: contentID,
            contentUrl: contentUrl,
            contentType: contentType ?? CaptionFileHints.contentTypes[contentExtension],
            streamType: streamType,
            duration: duration,
            metadata: title.map { ["metadataType": 0, "title": .string($0)] },
            tracks: mediaTracks.isEmpty ? nil : mediaTracks,
            textTrackStyle: resolvedStyle?.style
        )
        let activeIDs = active.flatMap { $0 }
        let request = CastLoadRequest(requestID: requestID, media: media, activeTrackIDs: active.isEmpty ? nil : activeIDs)
        let json = mediaOnly ? media.json : request.json
        let text = json.serialized(compact ? .compact : .pretty) + "\n"
        try OutputSink.write(text, to: output)

        let diagnostics = mediaOnly ? media.validate() : request.validate()
        for diagnostic in diagnostics { StandardError.write(diagnostic.formatted(file: "cast media") + "\n") }
        let errors = diagnostics.filter { $0.severity == .error }.count
        if errors > 0 {
            throw CommandFailure(
                "the message has \(CastCheckCommand.count(errors, "error")); a receiver would refuse it", status: .invalidInput)
        }
    }
}
