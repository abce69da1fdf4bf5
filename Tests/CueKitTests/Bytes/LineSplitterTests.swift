import CueKit
import Testing

@Suite struct LineSplitterTests {
    /// Splits `text` fed in chunks cut at `cuts`, returning each line, whether it was cut, and
    /// whether the splitter said it was plain ASCII.
    private func split(_ text: [UInt8], at cuts: [Int], limit: Int = 64, overflow: LineSplitter.Overflow = .cut) throws -> [(String, Bool, Bool)] {
        var splitter = LineSplitter(maximumLineLength: limit, overflow: overflow)
        var lines: [(String, Bool, Bool)] = []
        let take: (LineSplitter.Line) -> Void = { lines.append((String(decoding: $0.bytes, as: UTF8.self), $0.isCut, $0.isPlainASCII)) }
        var start = 0
        for cut in cuts + [text.count] where cut >= start {
            try text[start..<cut].withUnsafeBytes { try splitter.split($0, take) }
            start = cut
        }
        try splitter.finish(take)
        return lines
    }

    @Test func everyLineBreakEndsALineWhereverTheChunksAreCut() throws {
        let text = Array("one\ntwo\r\nthree\rfour\r\n\r\nsix".utf8)
        let whole = try split(text, at: []).map(\.0)
        #expect(whole == ["one", "two", "three", "four", "", "six"])
        for cut in 0...text.count {
            #expect(try split(text, at: [cut]).map(\.0) == whole, "cut at \(cut)")
        }
        // Every byte its own chunk: a CR ending one chunk and an LF starting the next are one break.
        #expect(try split(text, at: Array(1..<text.count)).map(\.0) == whole)
    }

    @Test func aLineInOneChunkIsCheckedForPlainASCII() throws {
        let lines = try split(Array("plain line\nnot plain: é\n".utf8), at: [])
        #expect(lines.map(\.2) == [true, false])
    }

    @Test func aLongLineIsCutOrStopsTheSplitting() throws {
        let text = Array((String(repeating: "a", count: 40) + "\nshort\n" + String(repeating: "b", count: 30)).utf8)
        for cuts in [[], [10, 35, 50]] {
            let lines = try split(text, at: cuts, limit: 16)
            #expect(lines.map(\.0) == [String(repeating: "a", count: 16), "short", String(repeating: "b", count: 16)])
            #expect(lines.map(\.1) == [true, false, true])
            #expect(throws: LineSplitter.TooLong.self) { try split(text, at: cuts, limit: 16, overflow: .stop) }
        }
    }

    @Test func noLineBreakAtTheEndStillGivesTheLastLineAndAnEmptyInputNone() throws {
        #expect(try split(Array("a\nb".utf8), at: [1]).map(\.0) == ["a", "b"])
        #expect(try split(Array("a\n".utf8), at: []).map(\.0) == ["a"])
        #expect(try split([], at: []).isEmpty)
    }
}
