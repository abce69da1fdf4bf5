import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitTTML

/// ``XMLAttributeCounter`` crosses text, quoted values and tags 32 bytes a step and counts lines and
/// columns a chunk at a time; a byte-by-byte model of the same state machine (below) is the
/// reference each of its scans (AVX2 where the processor has it, SSE2, and the C byte-by-byte
/// scan other processors run) must agree with, on random markup cut into random chunks.
@Suite struct XMLAttributeCounterTests {
    /// Pieces of markup that move the counter between its states, some broken on purpose.
    static let pieces = [
        "<p a=\"1\" b='2'>", "<p a=\"x=y\">", "<span c='>' d=\"'\">", "</p>", "</span >", "<br/>", "text ", "a=b ", "\n", "\r\n",
        "<!-- c=d -->", "<!-- x --->", "<!---->", "<?pi e=f?>", "<? g ??>", "<![CDATA[ h=i ]]>", "<![CDATA[ ]]]>", "<!DOCTYPE tt>",
        "<!X y=z>", "<![CDAT", "<!-", "é", "字", "\u{0}", "=", "\"", "'", ">", "<", "<q", " r=s", " t=\"u", "v\"", "<w x=1 y=2 z=3 ",
    ]

    @Test(arguments: [XMLAttributeCounter.Scan.best, .sse2, .byteByByte])
    func agreesWithTheByteByByteModelOnRandomMarkupInRandomChunks(scan: XMLAttributeCounter.Scan) {
        var random = SeededRandom(seed: 0xA77C_0001)
        var excesses = 0
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...60, using: &random)
            let bytes = Array((0..<count).map { _ in Self.pieces.randomElement(using: &random)! }.joined().utf8)
            let limit = Int.random(in: 1...4, using: &random)
            var model = ByteByByteAttributeCounter(limit: limit)
            var counter = XMLAttributeCounter(limit: limit, scan: scan)
            // Chunks shorter than a vector step, and chunks of several.
            let longest = Bool.random(using: &random) ? 24 : 200
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...longest, using: &random))
                let chunk = Array(bytes[start..<end])
                let expected = chunk.withUnsafeBytes { model.scan($0) }
                let found = chunk.withUnsafeBytes { counter.scan($0) }
                #expect(found?.location == expected?.location, "\(String(decoding: bytes, as: UTF8.self).debugDescription) limit \(limit)")
                #expect(found?.offsetInChunk == expected?.offsetInChunk)
                if expected != nil {
                    excesses += 1
                    break
                }
                start = end
            }
        }
        // The pieces make both outcomes common.
        #expect(excesses > 500 && excesses < 2_500)
    }

    @Test func aTagOverTheLimitAfterManyLinesIsFoundWhereItsLessThanIs() throws {
        let prefix = String(repeating: "<p>é字\n</p>", count: 1_000) + "  ab"
        let bytes = Array((prefix + "<p a=\"1\" b=\"2\" c=\"3\">").utf8)
        var counter = XMLAttributeCounter(limit: 2)
        // The last line is `</p>  ab<p ...`. In chunks of 100 bytes, the tag's `<` is in a chunk before the one with the third `=`.
        var found: XMLAttributeCounter.Excess?
        for start in stride(from: 0, to: bytes.count, by: 100) where found == nil {
            found = Array(bytes[start..<min(bytes.count, start + 100)]).withUnsafeBytes { counter.scan($0) }
        }
        let excess = try #require(found)
        #expect(excess.location == SourceLocation(line: 1_001, column: 9))
    }
}

/// The counter as first written: one byte at a time, line and column kept at every byte.
private struct ByteByByteAttributeCounter {
    /// The most attributes one element may have.
    let limit: Int

    private enum State {
        case text
        /// After `<`, before knowing what follows.
        case open
        case startTag
        case quoted(UInt8)
        /// Inside something that ends with `terminator` (`-->`, `?>`, `]]>`, `>`).
        case skipping(terminator: [UInt8], matched: Int)
        /// After `<!`: a comment, CDATA or a declaration, told by the next bytes.
        case bang(seen: [UInt8])
    }

    private var state = State.text
    private var count = 0
    private var line = 1
    private var column = 0
    private var tagLocation = SourceLocation(line: 1, column: 1)

    init(limit: Int) {
        self.limit = limit
    }

    typealias Excess = XMLAttributeCounter.Excess

    /// Looks at the next bytes; the first element over the limit, if these bytes reach it.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Excess? {
        var tagOffset: Int?
        for (offset, byte) in bytes.enumerated() {
            if byte == 0x0A {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80, byte != 0 {
                column += 1
            }
            switch state {
            case .text:
                if byte == UInt8(ascii: "<") {
                    state = .open
                    tagLocation = SourceLocation(line: line, column: column)
                    tagOffset = offset
                }
            case .open:
                switch byte {
                case 0: break
                case UInt8(ascii: "!"): state = .bang(seen: [])
                case UInt8(ascii: "?"): state = .skipping(terminator: Array("?>".utf8), matched: 0)
                case UInt8(ascii: "/"): state = .skipping(terminator: [UInt8(ascii: ">")], matched: 0)
                default:
                    state = .startTag
                    count = 0
                }
            case .startTag:
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): state = .quoted(byte)
                case UInt8(ascii: ">"): state = .text
                case UInt8(ascii: "="):
                    count += 1
                    if count > limit { return Excess(location: tagLocation, offsetInChunk: tagOffset) }
                default: break
                }
            case .quoted(let quote):
                if byte == quote { state = .startTag }
            case .skipping(let terminator, let matched):
                if byte == 0 { break }
                if byte == terminator[matched] {
                    state = matched + 1 == terminator.count ? .text : .skipping(terminator: terminator, matched: matched + 1)
                } else if byte == terminator[0] {
                    // `--->` and `]]]>` still end it: a repeated first byte keeps what matched.
                    let keeps = matched > 0 && terminator[matched - 1] == byte
                    state = .skipping(terminator: terminator, matched: keeps ? matched : 1)
                } else {
                    state = .skipping(terminator: terminator, matched: 0)
                }
            case .bang(let seen):
                if byte == 0 { break }
                let next = seen + [byte]
                if next == Array("--".utf8) {
                    state = .skipping(terminator: Array("-->".utf8), matched: 0)
                } else if next == Array("[CDATA[".utf8) {
                    state = .skipping(terminator: Array("]]>".utf8), matched: 0)
                } else if Array("--".utf8).starts(with: next) || Array("[CDATA[".utf8).starts(with: next) {
                    state = .bang(seen: next)
                } else {
                    // A declaration (which the reader refuses anyway): up to its `>`.
                    state = byte == UInt8(ascii: ">") ? .text : .skipping(terminator: [UInt8(ascii: ">")], matched: 0)
                }
            }
        }
        return nil
    }
}
