import ArgumentParser
import CueKit
import CueKitConversion
import CueKitSCC
import CueKitWebVTT

/// How the commands that read tracks read them: `--encoding`, and `--max-line-bytes`,
/// `--max-block-bytes`, `--max-style-bytes` and `--max-identifiers`, the WebVTT reader's limits
/// (``WebVTTReader/Options/Limits``), for the rare honest file past them.
///
/// A hostile or broken file (a line of hundreds of megabytes, a block that never ends) would
/// otherwise take memory without bound: past a limit, reading stops with `vtt-line-too-long` or
/// `vtt-block-too-long`, and the error names the flag that raises it.
package struct ReadingOptions: ParsableArguments {
    package init() {}

    @Option(
        help: ArgumentHelp(
            "The text encoding of SubRip and WebVTT input without a byte order mark: \(TextEncoding.allCases.map(\.rawValue).joined(separator: ", ")) (default: UTF-8, or UTF-16 for SubRip when its NUL bytes show it). TTML declares its own.",
            valueName: "encoding"))
    package var encoding: TextEncoding?

    @Flag(
        help: ArgumentHelp(
            "Keep EBU-STL timecodes as written; by default the start of programme (the GSI's TCP) is subtracted from every time."))
    package var keepTcp = false

    @Option(
        help: ArgumentHelp(
            "The frame rate SCC timecodes count at: \(SCCFrameRate.allCases.map(\.rawValue).joined(separator: ", ")) (default: 29.97, drop-frame or not as each timecode says).",
            valueName: "rate"))
    package var sccFrameRate: SCCFrameRate?

    @Option(help: ArgumentHelp("The SCC caption channel read: CC1, CC2, CC3 or CC4 (default: CC1).", valueName: "channel"))
    package var channel: SCCChannel = .cc1

    @Option(help: ArgumentHelp("The longest WebVTT line read, in bytes (K, M, G suffixes allowed).", valueName: "bytes"))
    package var maxLineBytes: ByteCount = ByteCount(WebVTTReader.Options.Limits().maximumLineLength)

    @Option(help: ArgumentHelp("The longest WebVTT block (cue, STYLE, NOTE) read, in bytes (K, M, G suffixes allowed).", valueName: "bytes"))
    package var maxBlockBytes: ByteCount = ByteCount(WebVTTReader.Options.Limits().maximumBlockLength)

    @Option(
        help: ArgumentHelp(
            "The most bytes read from standard input or a pipe read as SubRip or TTML, which are kept in a temporary file to be read twice (K, M, G suffixes allowed).",
            valueName: "bytes"))
    package var maxSpoolBytes: ByteCount = ByteCount(TrackSource.Options.defaultMaximumSpoolBytes)

    @Option(help: ArgumentHelp("The most bytes of WebVTT STYLE blocks in all (K, M, G suffixes allowed).", valueName: "bytes"))
    package var maxStyleBytes: ByteCount = ByteCount(WebVTTReader.Options.Limits().maximumStyleLength)

    @Option(
        help: ArgumentHelp(
            "The most distinct WebVTT cue identifiers remembered to find duplicates; integers in sequence (1, 2, 3...) cost nothing. Past it the check stops with a note.",
            valueName: "count"))
    package var maxIdentifiers: Int = WebVTTReader.Options.Limits().maximumTrackedIdentifiers

    @Option(
        help: ArgumentHelp(
            "The subtitle rendition read from a multivariant HLS playlist, by language or name (default: its default rendition, or its only one).",
            valueName: "language-or-name"))
    package var rendition: String?

    /// Sets what these flags say in the options of a source.
    package func apply(to options: inout TrackSource.Options) {
        options.webVTTLimits = webVTTLimits
        options.encoding = encoding
        options.maximumSpoolBytes = maxSpoolBytes.bytes
        options.hlsRendition = rendition
        options.ebuSTL.keepTimeCodeOfProgramme = keepTcp
        options.scc.frameRate = sccFrameRate
        options.scc.channel = channel
    }

    /// The WebVTT reader's limits these flags give.
    package var webVTTLimits: WebVTTReader.Options.Limits {
        var limits = WebVTTReader.Options.Limits()
        limits.maximumLineLength = maxLineBytes.bytes
        limits.maximumBlockLength = maxBlockBytes.bytes
        limits.maximumStyleLength = maxStyleBytes.bytes
        limits.maximumTrackedIdentifiers = maxIdentifiers
        return limits
    }

    /// A reading error at a limit, with the flag that raises it added to its message.
    package static func explained(_ error: ReadError) -> ReadError {
        let flag: String
        switch error.diagnostic.code {
        case .vttLineTooLong: flag = "--max-line-bytes"
        case .vttBlockTooLong: flag = "--max-block-bytes"
        case .vttStylesTooLong: flag = "--max-style-bytes"
        default: return error
        }
        var copy = error
        copy.diagnostic.message += " (raise the limit with \(flag))"
        return copy
    }
}

extension TextEncoding: ExpressibleByArgument {
    public init?(argument: String) {
        let name = argument.lowercased()
        switch name {
        case "utf8": self = .utf8
        case "cp1252": self = .windows1252
        case "iso-8859-1", "latin-1": self = .latin1
        default: self.init(rawValue: name)
        }
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    // Its name, where the default (`"\(self)"`) reflects on the enum at every start (``CommandLineChoice``).
    public var defaultValueDescription: String { rawValue }
}

extension SCCFrameRate: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(rawValue: argument == "29.97002997" || argument == "30000/1001" ? "29.97" : argument)
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public var defaultValueDescription: String { rawValue }
}

extension SCCChannel: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(name: argument)
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public var defaultValueDescription: String { rawValue }
}

/// A number of bytes on the command line: `1048576`, `512K`, `16M`, `1G`.
package struct ByteCount: ExpressibleByArgument, CustomStringConvertible {
    package let bytes: Int

    package init(_ bytes: Int) { self.bytes = bytes }

    package init?(argument: String) {
        var digits = Substring(argument)
        var scale = 1
        switch digits.last?.uppercased() {
        case "K": scale = 1 << 10
        case "M": scale = 1 << 20
        case "G": scale = 1 << 30
        default: break
        }
        if scale != 1 { digits = digits.dropLast() }
        guard let value = Int(digits), value > 0, value <= Int.max / scale else { return nil }
        bytes = value * scale
    }

    package var description: String { ByteScanning.describe(byteCount: bytes) }

    package var defaultValueDescription: String { description }
}
