import CCueKitBytes
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
/// SAX callback. This look-ahead is a small state machine over bytes, across chunk boundaries
/// (`cuekit_xml_attribute_scan` in CCueKitBytes): it skips comments, processing instructions, CDATA
/// sections and declarations, and counts the `=` outside quotes in each start tag. It reads UTF-8
/// and UTF-16 alike (the markup characters are ASCII, and the NUL bytes of UTF-16 change no state).
///
/// It runs over every byte of every document, so it is written to cost little: text, quoted values
/// and tags are crossed 64 bytes a step with the processor's vector instructions, and the line and
/// column it reports are not kept byte by byte but counted once a chunk (two loops the compiler
/// vectorises), and for a tag only when the tag is still open at the end of a chunk or goes over
/// the limit.
struct XMLAttributeCounter {
    /// The most attributes one element may have.
    let limit: Int

    /// Which scan to run: the processor's best, or (for tests) SSE2 or byte by byte.
    enum Scan {
        case best, sse2, byteByByte
    }
    private let kind: Scan

    private var state = CueKitXMLAttributeScan()
    /// Where the current chunk starts: the line, and the characters already on it.
    private var line = 1
    private var column = 0
    /// Where the open tag's `<` is, once the chunk that holds it has been passed.
    private var tagLocation = SourceLocation(line: 1, column: 1)

    init(limit: Int, scan: Scan = .best) {
        self.limit = limit
        self.kind = scan
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
        // C's `SIZE_MAX` (nothing found) is -1 as Swift's `Int`.
        var lastLessThan = -1
        let excess =
            switch kind {
            case .best: cuekit_xml_attribute_scan(&state, buffer.baseAddress, buffer.count, limit, &lastLessThan)
            case .sse2: cuekit_xml_attribute_scan_sse2(&state, buffer.baseAddress, buffer.count, limit, &lastLessThan)
            case .byteByByte: cuekit_xml_attribute_scan_portable(&state, buffer.baseAddress, buffer.count, limit, &lastLessThan)
            }
        // The open tag's `<`, when it is in this chunk.
        let tagOffset = lastLessThan == -1 ? nil : Optional(lastLessThan)
        if excess != -1 {
            let found = tagOffset.map { location(of: $0, in: buffer) } ?? tagLocation
            return Excess(location: found, offsetInChunk: tagOffset)
        }
        // A tag still open keeps its location for the chunks that continue it.
        if let tagOffset, isInTag { tagLocation = location(of: tagOffset, in: buffer) }
        advance(over: buffer)
        return nil
    }

    private var isInTag: Bool {
        switch Int(state.state) {
        case CUEKIT_XML_SCAN_OPEN, CUEKIT_XML_SCAN_START_TAG, CUEKIT_XML_SCAN_QUOTED: true
        default: false
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
