/// Cuts UTF-8 bytes into lines, chunk by chunk: the second stage of ``SubRipReader``.
///
/// A line ends at LF, at CRLF, or at a CR not followed by LF (old Mac files), as in WebVTT; a CR at
/// the end of one chunk and an LF at the start of the next are one line break. A line that lies
/// wholly inside a chunk is handed on from the chunk's own memory; only lines cut by a chunk
/// boundary are copied, into one reused buffer.
///
/// A line longer than the limit is cut at the limit (the rest, up to the line break, is dropped and
/// the line is marked as cut), so memory stays bounded whatever the input.
struct SubRipLineSplitter {
    let maximumLineLength: Int
    private var carry: [UInt8] = []
    private var carryCut = false
    /// The previous chunk ended with CR: an LF at the start of this one belongs to it.
    private var afterCarriageReturn = false
    /// Bytes were fed since the last line break (so the input does not end with a line break).
    private var openLine = false

    init(maximumLineLength: Int) {
        self.maximumLineLength = maximumLineLength
    }

    /// Splits `bytes`, calling `line` with each complete line (without its line break) and whether
    /// it was cut at the limit.
    mutating func split(_ bytes: UnsafeRawBufferPointer, line: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        let bytes = bytes.bindMemory(to: UInt8.self)
        guard !bytes.isEmpty else { return }
        var start = 0
        if afterCarriageReturn {
            afterCarriageReturn = false
            if bytes[0] == 0x0A { start = 1 }
        }
        var index = start
        let count = bytes.count
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        while index < count {
            // Skip eight bytes at a time while none of them is below 0x0E (no CR, no LF).
            while index + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            guard index < count else { break }
            let byte = bytes[index]
            if byte != 0x0A && byte != 0x0D {
                index += 1
                continue
            }
            // A line break at `index`.
            if carry.isEmpty && !carryCut {
                let length = index - start
                if length > maximumLineLength {
                    try line(UnsafeBufferPointer(rebasing: bytes[start..<(start + maximumLineLength)]), true)
                } else {
                    try line(UnsafeBufferPointer(rebasing: bytes[start..<index]), false)
                }
            } else {
                appendToCarry(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                let cut = carryCut
                try carry.withUnsafeBufferPointer { try line($0, cut) }
                carry.removeAll(keepingCapacity: true)
                carryCut = false
            }
            openLine = false
            if byte == 0x0D {
                if index + 1 < count {
                    if bytes[index + 1] == 0x0A { index += 1 }
                } else {
                    afterCarriageReturn = true
                }
            }
            index += 1
            start = index
        }
        if start < count {
            appendToCarry(UnsafeBufferPointer(rebasing: bytes[start..<count]))
            openLine = true
        }
    }

    /// Hands on the last line when the input does not end with a line break.
    mutating func finish(line: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        afterCarriageReturn = false
        guard openLine else { return }
        openLine = false
        let cut = carryCut
        try carry.withUnsafeBufferPointer { try line($0, cut) }
        carry.removeAll(keepingCapacity: true)
        carryCut = false
    }

    private mutating func appendToCarry(_ bytes: UnsafeBufferPointer<UInt8>) {
        let room = maximumLineLength - carry.count
        if bytes.count > room {
            carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<max(0, room)]))
            carryCut = true
        } else {
            carry.append(contentsOf: bytes)
        }
    }
}
