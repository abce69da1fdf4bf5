import ArgumentParser
import CueKit
import CueKitCast
import CueKitCommandSupport

/// `cuekit cast`: build and check the Cast messages that carry tracks and text styles.
struct CastCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cast",
        abstract: "Build and check Google Cast media information, tracks and text track styles.",
        discussion: """
            Examples:
              cuekit cast media --base-url https://cdn.example --content-id a.m3u8 a.en.vtt > load.json
              cuekit cast check load.json
            """,
        subcommands: [CastMediaCommand.self, CastCheckCommand.self, CastSendCommand.self, CastPlayCommand.self, CastTracksCommand.self, CastRestyleCommand.self, CastDevicesCommand.self, CastEmulateCommand.self]
    )
}

/// `cuekit cast check FILE.json`: decode and validate a Cast message as a receiver would.
struct CastCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Check a Cast message as a receiver would: a LOAD or EDIT_TRACKS_INFO message, a MEDIA_STATUS, media information, or a text track style.",
        discussion: """
            Prints every problem as FILE:LINE:COLUMN: SEVERITY: $.json.path: message [code], in document order. \
            Exit status: 0 when the message is valid (notes and warnings allowed), 1 when it has errors, \
            2 when the file cannot be read or the command line is wrong.

            With --media LOAD.json, the active track ids of an EDIT_TRACKS_INFO or a MEDIA_STATUS are checked against \
            the tracks that LOAD loads (or that media information lists).

            Examples:
              cuekit cast check load.json
              cuekit cast check --media load.json edit.json
              cuekit cast check --as style --warnings-as-errors style.json
            """
    )

    @Argument(help: ArgumentHelp("The JSON file ('-' for standard input).", valueName: "file.json"))
    var file: String

    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "Read the file as: load, edit-tracks-info, media-status, media or style (by default, found from its members).",
            valueName: "kind"),
        transform: { text in
            guard let kind = CastMessage.Kind(rawValue: text) else {
                throw ValidationError("'\(text)' is not a kind of message; expected load, edit-tracks-info, media-status, media or style")
            }
            return kind
        }
    )
    var kind: CastMessage.Kind?

    @Option(
        name: .customLong("media"),
        help: ArgumentHelp("A LOAD message (or media information) whose tracks the active track ids must name.", valueName: "load.json"))
    var mediaFile: String?

    @Flag(help: "Fail (exit 1) on warnings too.")
    var warningsAsErrors = false

    @Option(help: ArgumentHelp("The longest message checked, in bytes (K, M, G suffixes allowed).", valueName: "bytes"))
    var maxMessageBytes = ByteCount(CastMessage.defaultMaximumLength)

    func run() throws {
        let limit = maxMessageBytes.bytes
        var loaded: MediaInformation?
        if let mediaFile {
            let result = CastMessage.check(try Self.read(mediaFile, limit: limit), maximumLength: limit)
            switch result.message {
            case .load(let load) where result.isValid: loaded = load.media
            case .media(let media) where result.isValid: loaded = media
            default:
                for diagnostic in result.diagnostics where diagnostic.severity == .error {
                    StandardError.write(diagnostic.formatted(file: mediaFile) + "\n")
                }
                throw CommandFailure("--media \(mediaFile) is not a valid LOAD message or media information", status: .invalidInput)
            }
        }
        let bytes = try Self.read(file, limit: limit)
        let result: CastCheckResult
        if bytes.count > limit {
            result = CastMessage.check(bytes, as: kind, maximumLength: limit)
        } else {
            do {
                result = CastMessage.check(try CastJSONDocument(parsing: bytes), as: kind, loadedMedia: loaded)
            } catch {
                result = CastCheckResult(message: nil, diagnostics: [error.diagnostic])
            }
        }
        try report(result)
    }

    /// The file's bytes, at most one past `limit` (a huge document is refused unread).
    static func read(_ file: String, limit: Int) throws -> [UInt8] {
        let path = file == "-" ? "/dev/stdin" : file
        var bytes: [UInt8] = []
        struct TooLong: Error {}
        do {
            // Read no more than one byte past the limit: a huge document is refused unread.
            try FileByteSource(path: path).forEachChunk { chunk in
                bytes.append(contentsOf: chunk.prefix(limit + 1 - bytes.count))
                if bytes.count > limit { throw TooLong() }
            }
        } catch let error as ReadError {
            throw CommandFailure(error.diagnostic.message)
        } catch is TooLong {}
        return bytes
    }

    private func report(_ result: CastCheckResult) throws {
        var output = ""
        for diagnostic in result.diagnostics { output += diagnostic.formatted(file: file) + "\n" }
        var standardOutput = FileDescriptorSink.standardOutput()
        try standardOutput.write(output)
        try standardOutput.flush()
        let errors = result.diagnostics.filter { $0.severity == .error }.count
        let warnings = result.diagnostics.filter { $0.severity == .warning }.count
        if errors > 0 || result.message == nil {
            throw CommandFailure("\(file): \(Self.count(errors, "error")), \(Self.count(warnings, "warning"))", status: .invalidInput)
        }
        if warningsAsErrors && warnings > 0 {
            throw CommandFailure("\(file): \(Self.count(warnings, "warning")) (warnings are errors)", status: .invalidInput)
        }
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
