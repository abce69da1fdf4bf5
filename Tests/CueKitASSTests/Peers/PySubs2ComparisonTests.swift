import CueKit
import CueKitASS
import CueKitTestSupport
import Testing

/// CueKit against pysubs2 1.8.0 on the public scripts of `Fixtures/conformance/ass` and on scripts
/// made here for every override tag: the text shown at every instant must be the same (see
/// ``ShownText``), except where a named test below says who is right and why.
@Suite(.tags(.peers), .skippableByTag, .enabled(if: PySubs2.isInstalled, "pysubs2 is not installed: run .ci/setup"))
struct PySubs2ComparisonTests {
    static let corpus = TestPaths.files(in: TestPaths.conformance + "/ass", suffixes: [".ass", ".ssa"])

    /// Synthetic scripts: one per tag the reader maps or reports, and the shapes of the format.
    static let synthetic: [String: String] = [
        "tags": ASSScripts.script(events: [
            ASSScripts.dialogue("{\\i1}italic{\\i0} {\\b1}bold{\\b0} {\\u1}under{\\u0} {\\s1}struck"),
            ASSScripts.dialogue("{\\c&H00FFFF&}yellow{\\1c&H0000FF&} red{\\3c&HFF0000&\\alpha&H40&} edged", start: "0:00:02.00", end: "0:00:03.50"),
            ASSScripts.dialogue("{\\pos(100,200)\\an7}placed{\\an3}", start: "0:00:03.00", end: "0:00:04.00"),
            ASSScripts.dialogue("two\\Nlines\\hand hard space", start: "0:00:04.00", end: "0:00:05.00"),
            ASSScripts.dialogue("{\\k10}kar{\\kf20}a{\\ko30}oke {\\t(0,500,\\fs40)}grows {\\move(0,0,10,10)}moves", start: "0:00:05.00", end: "0:00:07.00"),
            ASSScripts.dialogue("{\\fad(200,200)\\blur2\\bord3\\shad1\\frz10\\fscx120\\fnTimes\\fs30}effects", start: "0:00:06.50", end: "0:00:08.00"),
            ASSScripts.dialogue("a, b, c, {comment}and d", start: "0:00:08.00", end: "0:00:09.00"),
            ASSScripts.dialogue("x < y & z", start: "0:00:09.00", end: "0:00:10.00"),
        ]),
        "order-and-overlap": ASSScripts.script(events: [
            ASSScripts.dialogue("third", start: "0:00:05.00", end: "0:00:09.00"),
            "Dialogue: 1,0:00:01.00,0:00:06.00,Default,,0,0,0,,first, on layer 1",
            ASSScripts.dialogue("second", start: "0:00:02.00", end: "0:00:03.00"),
            "Comment: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,not shown",
            "Dialogue: 0,1:02:03.04,1:02:05.00,Default,Narrator,0,0,0,,an hour in",
        ]),
        "ssa": """
            [Script Info]
            ScriptType: v4.00

            [V4 Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding
            Style: Default,Tahoma,24,16777215,16777215,0,0,0,0,1,1,0,2,10,10,10,0,0

            [Events]
            Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: Marked=0,0:00:01.00,0:00:02.50,Default,,0000,0000,0000,,SSA {\\i1}line

            """,
    ]

    @Test("CueKit shows pysubs2's text at every instant", arguments: corpus)
    func publicScriptsShowPySubs2Text(_ path: String) throws {
        let differences = try PySubs2.differences(path: path)
        #expect(differences.isEmpty, "\(path):\n\(differences.prefix(5).map { "  \($0)" }.joined(separator: "\n"))")
    }

    @Test("CueKit shows pysubs2's text at every instant", arguments: synthetic.keys.sorted())
    func syntheticScriptsShowPySubs2Text(_ name: String) throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(Self.synthetic[name]!, to: name + ".ass")
        let differences = try PySubs2.differences(path: folder.file(name + ".ass"))
        #expect(differences.isEmpty, "\(name):\n\(differences.prefix(5).map { "  \($0)" }.joined(separator: "\n"))")
    }

    // MARK: Where CueKit differs from pysubs2

    /// The `[Events]` `Format:` line names the order of an event's fields (ASS v4.00+, "[Events]
    /// section": "the Format line … specifies the order of the fields"), and libass reads events by
    /// it. pysubs2 splits every event in the fixed v4.00+ order whatever the Format line says, and
    /// fails on a script whose Format line reorders them.
    @Test func eventFieldsFollowTheFormatLine() throws {
        let script = """
            [Script Info]
            ScriptType: v4.00+

            [Events]
            Format: Start, End, Layer, Style, Text
            Dialogue: 0:00:01.00,0:00:02.00,0,Default,text last, with commas

            """
        #expect(throws: PySubs2.PeerFailure.self) { try PySubs2.differences(script: script) }
        let cues = try ASSReader.read(script).track.cues
        #expect(cues.map { ShownTextLines.of($0) } == [["text last, with commas"]])
        #expect(cues.map(\.start) == [1000])
    }

    /// A drawing (`\p1` … `\p0`) is vector commands that libass draws as a shape (ASS v4.00+
    /// section "Drawing commands"); pysubs2's plain text keeps the commands as text. CueKit
    /// leaves them out, and reports the drawing.
    @Test func drawingCommandsAreNotText() throws {
        let differences = try PySubs2.differences(
            script: ASSScripts.script(events: [ASSScripts.dialogue("{\\p1}m 0 0 l 100 0 100 100 0 100{\\p0}sign")]))
        #expect(differences.map(\.expected) == [["m 0 0 l 100 0 100 100 0 100sign"]])
        #expect(differences.map(\.actual) == [["sign"]])
    }

    /// `\n` is a soft line break: libass shows a space unless `WrapStyle: 2` (ASS v4.00+, "WrapStyle";
    /// libass `ass_render.c`). pysubs2's plain text always breaks the line there.
    @Test func softLineBreakIsASpaceUnlessWrapStyleIsTwo() throws {
        let script = ASSScripts.script(events: [ASSScripts.dialogue("soft\\nbreak")])
        let differences = try PySubs2.differences(script: script)
        #expect(differences.map(\.expected) == [["break", "soft"]])
        #expect(differences.map(\.actual) == [["soft break"]])
        let wrapped = ASSScripts.script(events: [ASSScripts.dialogue("soft\\nbreak")], info: ["WrapStyle: 2"])
        #expect(try PySubs2.differences(script: wrapped).isEmpty)
    }
}

/// pysubs2 in `.venv`, through `Tests/Peers/pysubs2_shown.py`.
enum PySubs2 {
    static var isInstalled: Bool { PythonPeers.hasPysubs2 }

    /// What pysubs2 shows of the script at `path`.
    static func shown(path: String) throws -> [ShownText.Shown] {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let run = ExternalProcess.run(PythonPeers.python, [PythonPeers.script("pysubs2_shown.py"), path, folder.file("out.txt")])
        guard run.status == 0 else { throw PeerFailure(message: run.error) }
        let text = String(decoding: try TestPaths.bytes(folder.file("out.txt")), as: UTF8.self)
        if text.hasPrefix("ERROR:") { throw PeerFailure(message: text) }
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            let lines = fields.count > 2 ? String(fields[2]).split(separator: "\u{2028}", omittingEmptySubsequences: false).map(String.init) : []
            let start = Int(fields[0]) ?? 0
            let end = Int(fields[1]) ?? 0
            return ShownText.Shown(start: start, end: end, lines: ShownText.lines(of: [.text(lines.joined(separator: "\n"))]))
        }
    }

    /// Where pysubs2 (expected) and CueKit (actual) show different text. CueKit's no-break spaces
    /// (`\h`) count as spaces: pysubs2 writes them as spaces, and they look the same.
    static func differences(path: String) throws -> [ShownText.Difference] {
        let expected = try shown(path: path)
        let cues = try ASSReader.read(fileAtPath: path).track.cues
        let actual = ShownText.shown(cues).map { shown in
            var copy = shown
            copy.lines = shown.lines.map { $0.replacingNoBreakSpaces() }
            return copy
        }
        let horizon = (expected + actual).map(\.end).max().map { $0 + 1 } ?? 0
        return ShownText.differences(expected: expected, actual: actual, horizon: horizon)
    }

    static func differences(script: String) throws -> [ShownText.Difference] {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(script, to: "script.ass")
        return try differences(path: folder.file("script.ass"))
    }

    struct PeerFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { "pysubs2: " + message }
    }
}

extension String {
    /// U+00A0 (what `\\h` reads as) as a space, as the peers write it.
    func replacingNoBreakSpaces() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\u{A0}" ? " " : $0 }))
    }
}
