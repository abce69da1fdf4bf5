import CueKit
import CueKitEBUSTL
import FuzzSupport

/// Reads the input as an EBU-STL file whole, then in chunks, and traps when the two differ.
///
/// The first byte picks the chunk size (1 to 128 bytes, its low seven bits) and whether the
/// programme's start time code is kept (its high bit); it is not part of the file. A small
/// diagnostics limit lets small inputs reach it.
func fuzzEBUSTL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let chunkSize = Int(data[0] & 0x7F) + 1
    let options = EBUSTLReader.Options(
        keepTimeCodeOfProgramme: data[0] & 0x80 != 0, limits: .init(maximumExtensionBlocks: 4, maximumDiagnosticsPerCode: 4))
    let file = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    ChunkedRead.check(file, chunkSize: chunkSize) { EBUSTLReader(options: options) }
    return 0
}
