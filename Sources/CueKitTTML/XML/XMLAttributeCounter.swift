import CueKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts the attributes of each start tag in the bytes on their way to libxml2, so that an element
/// with too many is refused before libxml2 parses it.
///
/// libxml2 (2.9.14, Debian 12) checks an element's attributes for duplicates pair by pair: an
/// element with tens of thousands of attributes takes minutes, whatever limit is set after its
/// SAX callback. This look-ahead is a small state machine over bytes, across chunk boundaries: it
/// skips comments, processing instructions, CDATA sections and declarations, and counts the `=`
/// outside quotes in each start tag. It reads UTF-8 and UTF-16 alike (the markup characters are
/// ASCII, and the NUL bytes of UTF-16 change no state).
///
/// It runs over every byte of every document, so it is written to cost little: text, quoted values
/// and end tags are crossed with `memchr`, and the line and column it reports are not kept byte by
/// byte but counted once a chunk (two loops the compiler vectorises), and for a tag only when the
/// tag is still open at the end of a chunk or goes over the limit.
struct XMLAttributeCounter {
    /// The most attributes one element may have.
    let limit: Int

    /// What ends a construct the counter skips.
    private enum Terminator {
        case comment  // -->
        case processingInstruction  // ?>
        case cdataSection  // ]]>
        case tagEnd  // >

        var count: Int {
            switch self {
            case .comment, .cdataSection: 3
            case .processingInstruction: 2
            case .tagEnd: 1
            }
        }

        func byte(at index: Int) -> UInt8 {
            switch self {
            case .comment: index < 2 ? UInt8(ascii: "-") : UInt8(ascii: ">")
            case .processingInstruction: index == 0 ? UInt8(ascii: "?") : UInt8(ascii: ">")
            case .cdataSection: index < 2 ? UInt8(ascii: "]") : UInt8(ascii: ">")
            case .tagEnd: UInt8(ascii: ">")
            }
        }
    }

    private enum State {
        case text
        /// After `<`, before knowing what follows.
        case open
        case startTag
        case quoted(UInt8)
        /// Inside something that ends with `terminator`, of which `matched` bytes have been seen.
        case skipping(Terminator, matched: Int)
        /// After `<!`: `matched` bytes of `--` (comment) or `[CDATA[` (CDATA section) seen.
        case bang(cdata: Bool, matched: Int)
    }

    private static let cdataOpening: StaticString = "[CDATA["

    private var state = State.text
    private var count = 0
    /// Where the current chunk starts: the line, and the characters already on it.
    private var line = 1
    private var column = 0
    /// Where the open tag's `<` is, once the chunk that holds it has been passed.
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
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let buffer = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        let end = buffer.count
        // The open tag's `<` in this chunk.
        var tagOffset: Int?
        var index = 0
        while index < end {
            switch state {
            case .text:
                guard let lessThan = Self.find(UInt8(ascii: "<"), in: buffer, from: index) else {
                    index = end
                    continue
                }
                state = .open
                tagOffset = lessThan
                index = lessThan + 1
            case .open:
                let byte = buffer[index]
                index += 1
                switch byte {
                case 0: break
                case UInt8(ascii: "!"): state = .bang(cdata: false, matched: 0)
                case UInt8(ascii: "?"): state = .skipping(.processingInstruction, matched: 0)
                case UInt8(ascii: "/"): state = .skipping(.tagEnd, matched: 0)
                default:
                    state = .startTag
                    count = 0
                }
            case .startTag:
                // Until a quote, `>` or `=`: the bytes of names and white space change nothing.
                while index < end {
                    let byte = buffer[index]
                    index += 1
                    if byte == UInt8(ascii: "=") {
                        count += 1
                        if count > limit {
                            let found = tagOffset.map { location(of: $0, in: buffer) } ?? tagLocation
                            return Excess(location: found, offsetInChunk: tagOffset)
                        }
                    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        state = .quoted(byte)
                        break
                    } else if byte == UInt8(ascii: ">") {
                        state = .text
                        break
                    }
                }
            case .quoted(let quote):
                guard let closing = Self.find(quote, in: buffer, from: index) else {
                    index = end
                    continue
                }
                state = .startTag
                index = closing + 1
            case .skipping(.tagEnd, _):
                guard let closing = Self.find(UInt8(ascii: ">"), in: buffer, from: index) else {
                    index = end
                    continue
                }
                state = .text
                index = closing + 1
            case .skipping(let terminator, let matched):
                let byte = buffer[index]
                index += 1
                if byte == 0 { break }
                if byte == terminator.byte(at: matched) {
                    state = matched + 1 == terminator.count ? .text : .skipping(terminator, matched: matched + 1)
                } else if byte == terminator.byte(at: 0) {
                    // `--->` and `]]]>` still end it: a repeated first byte keeps what matched.
                    let keeps = matched > 0 && terminator.byte(at: matched - 1) == byte
                    state = .skipping(terminator, matched: keeps ? matched : 1)
                } else {
                    state = .skipping(terminator, matched: 0)
                }
            case .bang(let cdata, let matched):
                let byte = buffer[index]
                index += 1
                if byte == 0 { break }
                if matched == 0, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "[") {
                    state = .bang(cdata: byte == UInt8(ascii: "["), matched: 1)
                } else if matched > 0, !cdata, byte == UInt8(ascii: "-") {
                    state = .skipping(.comment, matched: 0)
                } else if matched > 0, cdata, byte == Self.cdataOpening.utf8Start[matched] {
                    state = matched + 1 == Self.cdataOpening.utf8CodeUnitCount ? .skipping(.cdataSection, matched: 0) : .bang(cdata: true, matched: matched + 1)
                } else {
                    // A declaration (which the reader refuses anyway): up to its `>`.
                    state = byte == UInt8(ascii: ">") ? .text : .skipping(.tagEnd, matched: 0)
                }
            }
        }
        // A tag still open keeps its location for the chunks that continue it.
        if let tagOffset, isInTag { tagLocation = location(of: tagOffset, in: buffer) }
        advance(over: buffer)
        return nil
    }

    private var isInTag: Bool {
        switch state {
        case .open, .startTag, .quoted: true
        case .text, .skipping, .bang: false
        }
    }

    /// The line and column of the byte at `offset` in the chunk: lines end at LF, and a column
    /// counts the characters (bytes other than UTF-8 continuation bytes and NULs) up to and
    /// including that byte.
    private func location(of offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        var copy = self
        copy.advance(over: UnsafeBufferPointer(rebasing: buffer[...offset]))
        return SourceLocation(line: copy.line, column: copy.column)
    }

    /// Moves the line and column past `bytes`. Lines are found with `memchr`, which crosses a
    /// caption file's lines (tens to hundreds of bytes) faster than counting every byte would.
    private mutating func advance(over bytes: UnsafeBufferPointer<UInt8>) {
        var lastLineStart = 0
        while let lineFeed = Self.find(0x0A, in: bytes, from: lastLineStart) {
            line += 1
            column = 0
            lastLineStart = lineFeed + 1
        }
        column += ByteScanning.characterStartCount(in: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[lastLineStart...])))
    }

    private static func find(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        guard index < buffer.count, let found = memchr(buffer.baseAddress! + index, Int32(byte), buffer.count - index) else { return nil }
        return buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
