import CueKit
import CueKitConversion
import FuzzSupport

/// Reads the input as an HLS playlist and traps on a broken promise: the playlist must read the
/// same with its line ends made CR LF (RFC 8216, section 4.1), and a media playlist's tally must
/// count the segments it lists. Reading it as a track (its segments name files that do not
/// exist) must end in a `ReadError`, never a crash.
func fuzzHLSPlaylist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let parsed = Result { try HLSPlaylist.parse(text) }
    // Every LF without a CR before it gets one.
    var crlf: [UInt8] = []
    for byte in bytes {
        if byte == 0x0A, crlf.last != 0x0D { crlf.append(0x0D) }
        crlf.append(byte)
    }
    let parsedCRLF = Result { try HLSPlaylist.parse(String(decoding: crlf, as: UTF8.self)) }
    switch (parsed, parsedCRLF) {
    case (.success(let playlist), .success(let again)):
        if playlist != again { fatalError("the playlist read differently with CR LF line ends:\n\(playlist)\n\(again)") }
        if case .media(let media) = playlist, media.segmentTally.count != media.segments.count {
            fatalError("the tally counts \(media.segmentTally.count) segments, the playlist lists \(media.segments.count)")
        }
    case (.failure(let error), .failure(let again)):
        guard let error = error as? ReadError, let again = again as? ReadError else { fatalError("not a ReadError: \(error)") }
        if error.diagnostic.location != again.diagnostic.location { fatalError("located differently with CR LF: \(error) \(again)") }
    default:
        fatalError("read with LF and CR LF line ends, only one was refused: \(parsed) \(parsedCRLF)")
    }
    let reader = HLSPlaylistReader(path: "/nonexistent-cuekit-fuzz/subs.m3u8", options: .init())
    do {
        try reader.stream(text: text) { _ in }
    } catch is ReadError {
    } catch {
        fatalError("reading threw something other than a ReadError: \(error)")
    }
    return 0
}
