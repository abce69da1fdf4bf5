import CueKit
import CueKitWebVTT
import FuzzSupport

/// Reads the input as a WebVTT file whole, then again in chunks and byte by byte, and traps when
/// they differ.
///
/// The first byte picks the chunk size (1 to 256 bytes) and is not part of the file, so the
/// fuzzer explores cut points as well as contents. A reader must give the same events and the same
/// error however its input is cut (`TrackReader`'s contract). Small limits let small inputs reach
/// the limit paths.
func fuzzWebVTT(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard size > 0 else { return 0 }
    let chunkSize = Int(data[0]) + 1
    let file = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    for diagnostics in [WebVTTReader.Options.Diagnostics.all, .none] {
        let options = WebVTTReader.Options(
            diagnostics: diagnostics,
            limits: .init(maximumLineLength: 512, maximumBlockLength: 2048, maximumTrackedIdentifiers: 8)
        )
        let whole = ChunkedRead(file, chunkSize: max(file.count, 1)) { WebVTTReader(options: options) }
        let chunked = ChunkedRead(file, chunkSize: chunkSize) { WebVTTReader(options: options) }
        if whole != chunked {
            fatalError("chunks of \(chunkSize) bytes read differently from the whole file:\n\(whole)\n\(chunked)")
        }
        // Byte by byte, no block lies whole in a chunk: every line takes the line-by-line path,
        // which the whole file's cue blocks skip.
        let byteByByte = ChunkedRead(file, chunkSize: 1) { WebVTTReader(options: options) }
        if whole != byteByByte {
            fatalError("one byte at a time reads differently from the whole file:\n\(whole)\n\(byteByByte)")
        }
        // Without cue events (what `cuekit validate` reads), every other event and the error
        // are those of the full read.
        var lean = options
        lean.cueContent = .diagnosticsOnly
        let leanRead = ChunkedRead(file, chunkSize: chunkSize) { WebVTTReader(options: lean) }
        let expected = whole.events.filter { if case .cue = $0 { false } else { true } }
        if leanRead.events != expected || leanRead.error != whole.error {
            fatalError("a read without cue events differs from the full read:\n\(whole)\n\(leanRead)")
        }
    }
    // Large-structure mode: one line of the input (a block's, a tag's) repeated 2,000 times, read
    // with the default limits.
    if let large = LargeStructure.amplify(file, open: 0x0A, close: 0x0A, times: 2000) {
        _ = try? WebVTTReader.read(bytes: large)
    }
    if let large = LargeStructure.amplify(file, open: UInt8(ascii: "<"), close: UInt8(ascii: ">"), times: 2000) {
        var result = try? WebVTTReader.read(bytes: large)
        for cue in result?.track.cues ?? [] { _ = cue.nodes() }
        result = nil
    }
    return 0
}
