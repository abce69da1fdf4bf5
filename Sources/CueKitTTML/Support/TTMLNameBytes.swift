/// A name's UTF-8 bytes as a table key (a voice, a language tag, a span's tag and class names),
/// hashed in one pass over the bytes: an array of bytes as a key hashes them one call a byte.
struct TTMLNameBytes: Hashable {
    /// The bytes; reused as scratch space from look-up to look-up.
    var bytes: [UInt8] = []

    static func == (lhs: TTMLNameBytes, rhs: TTMLNameBytes) -> Bool { lhs.bytes == rhs.bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
