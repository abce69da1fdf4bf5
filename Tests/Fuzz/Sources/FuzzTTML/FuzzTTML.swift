import CueKit
import CueKitTTML
import FuzzSupport

/// Reads the input as a TTML document, whole and in chunks, with the prescan first as `cuekit`
/// reads a large file, and in one pass holding its events, as it reads a small one.
///
/// The first byte picks the chunk size (1 to 256 bytes) and is not part of the document. Only
/// crashes, hangs and leaks are looked for: libxml2 may report a syntax error at a different
/// point depending on where the input is cut.
func fuzzTTML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard size > 0 else { return 0 }
    let chunkSize = Int(data[0]) + 1
    let document = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let options = TTMLReader.Options(limits: .init(maximumDiagnosticsPerCode: 5))
    let styles = TTMLReader.prescan(bytes: document, options: options)
    _ = try? TTMLReader.read(bytes: document, options: options)

    var events = 0
    /// Feeds the document in chunks of `chunkSize`, then finishes.
    func read(with reader: TTMLReader, _ what: String) {
        do {
            var start = 0
            while start < document.count {
                let end = min(start + chunkSize, document.count)
                try reader.feed(UnsafeRawBufferPointer(rebasing: document[start..<end])) { _ in events += 1 }
                start = end
            }
            try reader.finish { _ in events += 1 }
        } catch is ReadError {
        } catch {
            fatalError("the \(what) threw something other than a ReadError: \(error)")
        }
    }
    read(with: TTMLReader(options: options, prescan: styles), "reader")
    // The one pass that holds its events until the end, as files of a few MiB are read.
    read(with: TTMLReader(options: options, holdingEventsUntilEnd: true), "holding reader")
    // Large-structure mode: one tag of the input (its attributes, or an element) repeated 2,000
    // times, read with the default limits.
    if let large = LargeStructure.amplify(document, open: UInt8(ascii: "<"), close: UInt8(ascii: ">"), times: 2000) {
        _ = try? TTMLReader.read(bytes: large)
    }
    if let large = LargeStructure.amplify(document, open: UInt8(ascii: " "), close: UInt8(ascii: "\""), times: 2000) {
        _ = try? TTMLReader.read(bytes: large)
    }
    return 0
}
