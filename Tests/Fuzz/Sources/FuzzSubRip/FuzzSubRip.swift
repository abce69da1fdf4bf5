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
    let whole = FuzzRead(file, chunkSize: max(file.count, 1), options: options, prescan: prescan)
    let chunked = FuzzRead(file, chunkSize: chunkSize, options: options, prescan: prescan)
    if whole != chunked {
        fatalError("chunks of \(chunkSize) bytes read differently from the whole file:\n\(whole)\n\(chunked)")
    }
    // Large-structure mode: one line (a cue's text, a tag) repeated 2,000 times, default limits.
    if let large = LargeStructure.amplify(file, open: UInt8(ascii: "<"), close: 0x0A, times: 2000) {
        var reader = SubRipReader()
        _ = try? reader.read(large)
    }
    return 0
}

/// Every event the reader hands out, and the error that stopped it, if any.
struct FuzzRead: Equatable, CustomStringConvertible {
    var events: [TrackEvent] = []
    var error: ReadError?

    init(_ file: UnsafeRawBufferPointer, chunkSize: Int, options: SubRipReader.Options, prescan: SubRipReader.Prescan?) {
        var reader = prescan.map { SubRipReader(options: options, prescan: $0) } ?? SubRipReader(options: options)
        do {
            var start = 0
            while start < file.count {
                let end = min(start + chunkSize, file.count)
                try reader.feed(UnsafeRawBufferPointer(rebasing: file[start..<end])) { events.append($0) }
                start = end
            }
            try reader.finish { events.append($0) }
        } catch let caught as ReadError {
            error = caught
        } catch {
            fatalError("the reader threw something other than a ReadError: \(error)")
        }
    }

    var description: String { events.map { "\($0)" }.joined(separator: "\n") + "\nerror: \(String(describing: error))" }
}
