import CueKitTestSupport
import Testing

/// No hand-written `.swift` file in `Sources/` is over 600 lines: a file that grows past that is
/// split by concern (extensions in files named after what they hold), so that each reads whole.
@Suite struct SourceFileSizeTests {
    static let limit = 600

    /// Files a generator writes, which are not split by hand: protobuf messages and the table of
    /// HTML's named character references.
    static func isGenerated(_ path: String) -> Bool {
        path.hasSuffix(".pb.swift") || path.hasSuffix("/NamedCharacterReferences.swift")
    }

    /// The lines of a file as `wc -l` counts them, plus a last line without a line feed.
    static func lineCount(_ bytes: [UInt8]) -> Int {
        let feeds = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        return feeds + (bytes.last.map { $0 == UInt8(ascii: "\n") ? 0 : 1 } ?? 0)
    }

    @Test func noSourceFileIsLongerThanTheLimit() throws {
        let sources = TestPaths.packageRoot + "/Sources"
        let files = TestPaths.files(in: sources, suffixes: [".swift"])
        // A wrong root would find nothing, and pass.
        try #require(files.count > 100, "only \(files.count) Swift files found below \(sources)")
        for path in files where !Self.isGenerated(path) {
            let lines = Self.lineCount(try TestPaths.bytes(path))
            #expect(
                lines <= Self.limit,
                "\(path.dropFirst(TestPaths.packageRoot.count + 1)) has \(lines) lines, more than \(Self.limit): split it by concern")
        }
    }

    @Test func linesAreCountedAsWCCountsThem() {
        #expect(Self.lineCount([]) == 0)
        #expect(Self.lineCount(Array("a\nb\n".utf8)) == 2)
        #expect(Self.lineCount(Array("a\nb".utf8)) == 2)
        #expect(Self.lineCount(Array("\n\n\n".utf8)) == 3)
    }
}
