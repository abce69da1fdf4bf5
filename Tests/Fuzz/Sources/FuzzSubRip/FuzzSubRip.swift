import CueKit
import CueKitSubRip
import FuzzSupport

/// Reads the input as a SubRip file whole, then again in chunks, and traps when the two differ.
///
/// The first byte picks the chunk size (1 to 64 bytes, from its low six bits), the encoding, and
/// whether the reader is made with the file's prescan (from its high bits); it is not part of the
/// file. Small limits let small
/// inputs reach the limit paths.
func fuzzSubRip(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard size > 0 else { return 0 }
    let chunkSize = Int(data[0] & 0x3F) + 1
    let encodings: [TextEncoding?] = [nil] + TextEncoding.allCases
    let options = SubRipReader.Options(
        encoding: encodings[Int(data[0] >> 5) % encodings.count],
        limits: .init(maximumLineLength: 256, maximumCueTextLength: 1024, maximumDiagnosticsPerCode: 4)
    )
    let file = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let prescan = data[0] & 0x80 != 0 ? SubRipReader.prescan(bytes: file, options: options) : nil
    ChunkedRead.check(file, chunkSize: chunkSize) {
        prescan.map { SubRipReader(options: options, prescan: $0) } ?? SubRipReader(options: options)
    }
    // Large-structure mode: one line (a cue's text, a tag) repeated 2,000 times, default limits.
    if let large = LargeStructure.amplify(file, open: UInt8(ascii: "<"), close: 0x0A, times: 2000) {
        var reader = SubRipReader()
        _ = try? reader.read(large)
    }
    return 0
}
