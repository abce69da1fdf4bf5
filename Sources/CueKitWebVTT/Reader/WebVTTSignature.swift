import CueKit

/// The file signature check (W3C WebVTT, section 6.1, steps 4 to 6), decided on the first bytes of
/// the input as they arrive, before any line is complete: a file that is not WebVTT fails after at
/// most ten bytes, however long its first line.
///
/// After the optional byte order mark, the input must be exactly `WEBVTT`, or start with `WEBVTT`
/// followed by a space, a tab or a line break (CR or LF: both become LF before the check).
struct WebVTTSignature {
    private static let signature = Array("WEBVTT".utf8)
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The bytes seen so far: at most the byte order mark and seven characters.
    private var probe: [UInt8] = []
    /// True once the signature was found.
    private(set) var isVerified = false

    /// Looks at the next chunk; throws ``DiagnosticCode/vttNoSignature`` as soon as the bytes rule
    /// WebVTT out.
    mutating func check(_ chunk: UnsafeRawBufferPointer) throws {
        guard !isVerified else { return }
        for byte in chunk {
            probe.append(byte)
            if try decide(atEnd: false) { return }
        }
    }

    /// The end of input: the signature must have been found by now.
    mutating func finish() throws {
        guard !isVerified else { return }
        guard !probe.isEmpty else {
            throw failure(column: 1, "the file is empty; a WebVTT file starts with the line 'WEBVTT'")
        }
        _ = try decide(atEnd: true)
    }

    /// Returns true once decided (verified); throws when the bytes are not WebVTT.
    private mutating func decide(atEnd: Bool) throws -> Bool {
        var start = 0
        // Wait until the byte order mark is either complete or ruled out.
        let markPrefix = min(probe.count, 3)
        if probe[0..<markPrefix].elementsEqual(Self.byteOrderMark[0..<markPrefix]) {
            if probe.count < 3 {
                if atEnd { throw notSignature(at: 0) }
                return false
            }
            start = 3
        }
        let characters = probe[start...]
        for (offset, byte) in characters.prefix(6).enumerated() where byte != Self.signature[offset] {
            throw notSignature(at: offset)
        }
        if characters.count >= 7 {
            let separator = characters[characters.startIndex + 6]
            guard separator == 0x20 || separator == 0x09 || separator == 0x0A || separator == 0x0D else {
                throw failure(column: 7, "'WEBVTT' must be followed by a space, a tab or a line break; this is not a WebVTT file")
            }
            isVerified = true
            probe = []
            return true
        }
        if atEnd {
            if characters.count == 6 {
                isVerified = true
                return true
            }
            throw notSignature(at: characters.count)
        }
        return false
    }

    private func notSignature(at offset: Int) -> ReadError {
        failure(column: offset + 1, "a WebVTT file starts with the line 'WEBVTT'; this is not a WebVTT file")
    }

    private func failure(column: Int, _ message: String) -> ReadError {
        ReadError(.vttNoSignature, at: SourceLocation(line: 1, column: column), message)
    }
}
