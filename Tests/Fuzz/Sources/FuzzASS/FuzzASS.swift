import CueKit
import CueKitASS
import FuzzSupport

/// Reads the input as an ASS/SSA script whole, then in chunks, and traps when the two differ.
///
/// The first byte picks the chunk size (1 to 64 bytes, its low six bits) and the encoding (its
/// high bits); it is not part of the file.
func fuzzASS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let chunkSize = Int(data[0] & 0x3F) + 1
    let encodings: [TextEncoding?] = [nil] + TextEncoding.allCases
    let options = ASSReader.Options(encoding: encodings[Int(data[0] >> 6) % encodings.count])
    let file = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    ChunkedRead.check(file, chunkSize: chunkSize) { ASSReader(options: options) }
    // Large-structure mode: one line (a Dialogue, an override block) repeated 2,000 times.
    if let large = LargeStructure.amplify(file, open: UInt8(ascii: "{"), close: 0x0A, times: 2000) {
        var reader = ASSReader()
        _ = try? reader.read(large)
    }
    return 0
}
