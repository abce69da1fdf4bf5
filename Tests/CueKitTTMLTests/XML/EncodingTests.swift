import CueKit
import CueKitTTML
import CueKitTestSupport
import Testing

/// UTF-8 (with or without a byte order mark), UTF-16 with a byte order mark in either byte order,
/// and 8-bit encodings named in the XML declaration.
struct EncodingTests {
    static let document = """
        <?xml version="1.0" encoding="ENCODING"?>
        <tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">Ça va, 字幕</p></div></body></tt>
        """

    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return bytes
    }

    @Test(arguments: [false, true])
    func utf16WithByteOrderMark(bigEndian: Bool) throws {
        let bytes = Self.utf16(Self.document.replacingEncoding("UTF-16"), bigEndian: bigEndian)
        let result = try ChunkingVerifier.verify(bytes) { TTMLReader() }.get()
        #expect(result.compactMap { if case .cue(let cue) = $0 { cue.text } else { nil } } == ["Ça va, 字幕"])
    }

    @Test func utf8WithByteOrderMark() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + Array(Self.document.replacingEncoding("UTF-8").utf8)
        let result = try TTMLReader.read(bytes: bytes)
        #expect(result.track.cues.map(\.text) == ["Ça va, 字幕"])
    }

    @Test func latin1Declared() throws {
        let text = Self.document.replacingEncoding("ISO-8859-1").replacingOccurrences(", 字幕", with: "")
        let bytes: [UInt8] = text.unicodeScalars.map { UInt8($0.value) }
        let result = try TTMLReader.read(bytes: bytes)
        #expect(result.track.cues.map(\.text) == ["Ça va"])
    }

    /// Bytes that are not UTF-8 in a document that says it is: refused at the bad byte.
    @Test func invalidUTF8IsRefusedWhereItIs() throws {
        let bytes = Array(#"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p>caf"#.utf8) + [0xE9] + Array("</p></div></body></tt>".utf8)
        do {
            _ = try TTMLReader.read(bytes: bytes)
            Issue.record("read")
        } catch let error as ReadError {
            #expect(error.diagnostic.code == .ttmlNotWellFormed)
            #expect(error.diagnostic.location?.line == 1)
            #expect(error.diagnostic.message.hasPrefix("not well-formed XML: Input is not proper UTF-8"))
        }
    }
}

extension String {
    fileprivate func replacingEncoding(_ name: String) -> String {
        replacingOccurrences("ENCODING", with: name)
    }

    fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
