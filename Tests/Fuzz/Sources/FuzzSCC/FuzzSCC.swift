import CueKit
import CueKitSCC
import FuzzSupport

/// Reads the input as an SCC file whole, then in chunks, and traps when the two differ.
///
/// The first byte picks the chunk size (1 to 64 bytes, its low six bits) and the channel (its high
/// bits); it is not part of the file. A small diagnostics limit lets small inputs reach it.
func fuzzSCC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let chunkSize = Int(data[0] & 0x3F) + 1
    let channels = SCCChannel.allCases
    let options = SCCReader.Options(channel: channels[Int(data[0] >> 6) % channels.count], limits: .init(maximumDiagnosticsPerCode: 4))
    let file = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    ChunkedRead.check(file, chunkSize: chunkSize) { SCCReader(options: options) }
    // Large-structure mode: one line of codes repeated 2,000 times, default limits.
    if let large = LargeStructure.amplify(file, open: 0x0A, close: 0x0A, times: 2000) {
        _ = try? SCCReader.read(bytes: large)
    }
    return 0
}
