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
              cuekit cast media --base-url https://cdn.example --content-id a.mp4 a.en.vtt
              cuekit cast check load.json edit.json
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
            Prints every problem as FILE:LINE:COLUMN: SEVERITY: $.json.path: message [code], in document order, \
            then a summary line. Exit status: 0 when every message is valid (notes and warnings allowed), \
            1 when one has errors, 2 when a file cannot be read or the command line is wrong.

            With --media LOAD.json, the active track ids of an EDIT_TRACKS_INFO or a MEDIA_STATUS are checked against \
            the tracks that LOAD loads (or that media information lists).

            Examples:
              cuekit cast check load.json edit.json
              cuekit cast check --media load.json edit.json
              cuekit cast check --as style --warnings-as-errors style.json
            """
    )

    @Argument(help: ArgumentHelp("The JSON files ('-' for standard input).", valueName: "file.json"))
    var files: [String] = []

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

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one file to check ('-' for standard input).") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input ('-') can be read only once.") }
    }

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
        var summary = ValidationSummary(strict: warningsAsErrors)
        var standardOutput = FileDescriptorSink.standardOutput()
        for file in files {
            var outcome = FileValidation(path: file == "-" ? "<stdin>" : file, strict: warningsAsErrors)
            do {
                let result = check(try Self.read(file, limit: limit), limit: limit, loaded: loaded)
                var output = ""
                for diagnostic in result.diagnostics {
                    output += diagnostic.formatted(file: outcome.path) + "\n"
                    outcome.count(diagnostic)
                }
                // A file that is no message at all is invalid even when its only problem is a warning.
                if result.message == nil && outcome.errors == 0 { outcome.errors = 1 }
                try standardOutput.write(output)
            } catch let failure as CommandFailure {
                StandardError.write("cuekit: error: \(failure.message)\n")
                outcome.failure = failure.message
            }
            summary.add(outcome)
        }
        try standardOutput.write(summary.line + "\n")
        try standardOutput.flush()
        if summary.failed > 0 { throw ExitCode(ExitStatus.usageOrIOError.rawValue) }
        if summary.invalid > 0 { throw ExitCode(ExitStatus.invalidInput.rawValue) }
    }

    /// Checks one file's bytes, against the media `--media` loads when given.
    private func check(_ bytes: [UInt8], limit: Int, loaded: MediaInformation?) -> CastCheckResult {
        if bytes.count > limit { return CastMessage.check(bytes, as: kind, maximumLength: limit) }
        do {
            return CastMessage.check(try CastJSONDocument(parsing: bytes), as: kind, loadedMedia: loaded)
        } catch {
            return CastCheckResult(message: nil, diagnostics: [error.diagnostic])
        }
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

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
