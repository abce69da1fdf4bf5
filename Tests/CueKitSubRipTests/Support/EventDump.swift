import CueKit
import CueKitSubRip
import CueKitTestSupport
import Testing

/// A readable dump of a reader's events, one assertion per fixture: cues with their identifier,
/// times, non-default settings and text; style sheets; diagnostics as compilers print them.
enum EventDump {
    static func dump(_ events: [TrackEvent]) -> String {
        var lines: [String] = []
        for event in events {
            switch event {
            case .header(let text):
                if !text.isEmpty { lines.append("header \(text)") }
            case .region(let region):
                lines.append("region \(region.id)")
            case .stylesheet(let sheet):
                lines.append("style \(sheet.text)")
            case .note(let note):
                lines.append("note \(note.text)")
            case .cue(let cue):
                var line = "cue"
                if !cue.id.isEmpty { line += " #\(cue.id)" }
                line += " \(CueTimestamp.format(cue.start)) --> \(CueTimestamp.format(cue.end))"
                let settings = describe(cue.settings)
                if !settings.isEmpty { line += " " + settings }
                lines.append(line)
                for textLine in cue.text.split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append("  | \(textLine)")
                }
            case .diagnostic(let diagnostic):
                lines.append(diagnostic.description)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Non-default settings, as WebVTT writes them.
    static func describe(_ settings: CueSettings) -> String {
        var parts: [String] = []
        switch settings.line {
        case .auto: break
        case .number(let value):
            parts.append("line:\(format(value))" + (settings.lineAlignment == .start ? "" : ",\(settings.lineAlignment.rawValue)"))
        case .percentage(let value):
            parts.append("line:\(format(value))%" + (settings.lineAlignment == .start ? "" : ",\(settings.lineAlignment.rawValue)"))
        }
        if settings.alignment != .center { parts.append("align:\(settings.alignment.rawValue)") }
        if case .percentage(let value) = settings.position { parts.append("position:\(format(value))%") }
        return parts.joined(separator: " ")
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Reads a fixture whole, byte by byte and in random chunks (demanding the same events), and
    /// returns the dump.
    static func read(fixture name: String, options: SubRipReader.Options = .init()) throws -> String {
        let bytes = try TestPaths.bytes(TestPaths.fixture("subrip/" + name))
        return try read(bytes, options: options)
    }

    static func read(_ bytes: [UInt8], options: SubRipReader.Options = .init()) throws -> String {
        let outcome = try ChunkingVerifier.verify(bytes) { SubRipReader(options: options) }
        return dump(try outcome.get())
    }

    static func read(_ text: String, options: SubRipReader.Options = .init()) throws -> String {
        try read(Array(text.utf8), options: options)
    }
}
