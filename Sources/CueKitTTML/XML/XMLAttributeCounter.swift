import CueKit

/// Counts the attributes of each start tag in the bytes on their way to libxml2, so that an element
/// with too many is refused before libxml2 parses it.
///
/// libxml2 (2.9.14, Debian 12) checks an element's attributes for duplicates pair by pair: an
/// element with tens of thousands of attributes takes minutes, whatever limit is set after its
/// SAX callback. This look-ahead is a small state machine over bytes, across chunk boundaries: it
/// skips comments, processing instructions, CDATA sections and declarations, and counts the `=`
/// outside quotes in each start tag. It reads UTF-8 and UTF-16 alike (the markup characters are
/// ASCII, and the NUL bytes of UTF-16 change no state).
struct XMLAttributeCounter {
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

    /// An element with more attributes than the limit: where its tag starts, and the offset of
    /// its `<` in the chunk that reached the limit (nil when an earlier chunk held it).
    struct Excess {
        var location: SourceLocation
        var offsetInChunk: Int?
    }

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
