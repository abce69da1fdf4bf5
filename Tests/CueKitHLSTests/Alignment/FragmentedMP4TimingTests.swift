import CueKit
import CueKitHLS
import CueKitTestSupport
import Testing

/// The earliest presentation time of fMP4 media read from boxes made here: decode time, the
/// first sample's composition offset, the edit list (empty edits delay; the first real edit's
/// media time is taken off), the video track chosen; broken files refused by name.
@Suite struct FragmentedMP4TimingTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
    }

    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be64(_ value: UInt64) -> [UInt8] { be32(UInt32(value >> 32)) + be32(UInt32(value & 0xFFFF_FFFF)) }

    /// A track: `tkhd` (version 0) with its id, `mdhd` with its timescale, `hdlr` of `handler`,
    /// and an edit list of (duration, media time) entries.
    static func track(id: UInt32, timescale: UInt32, handler: String, edits: [(UInt32, Int32)]) -> [UInt8] {
        let header = box("tkhd", be32(3) + be32(0) + be32(0) + be32(id) + Array(repeating: 0, count: 68))
        let editList = box("elst", be32(0) + be32(UInt32(edits.count)) + edits.flatMap { be32($0.0) + be32(UInt32(bitPattern: $0.1)) + be32(0x10000) })
        let media = box(
            "mdia",
            box("mdhd", be32(0) + be32(0) + be32(0) + be32(timescale) + be32(0) + be32(0))
                + box("hdlr", be32(0) + be32(0) + Array(handler.utf8) + Array(repeating: 0, count: 13)))
        return box("trak", header + (edits.isEmpty ? [] : box("edts", editList)) + media)
    }

    /// A fragment of track `id`: `tfdt` (version 1) and a `trun` whose first sample has `offset`
    /// as its composition offset (with duration and size before it).
    static func fragment(id: UInt32, decodeTime: UInt64, offset: Int32) -> [UInt8] {
        let run = box("trun", be32(0x000B01) + be32(1) + be32(0) + be32(512) + be32(100) + be32(UInt32(bitPattern: offset)))
        let trackFragment = box("traf", box("tfhd", be32(0x020000) + be32(id)) + box("tfdt", be32(0x0100_0000) + be64(decodeTime)) + run)
        return box("moof", box("mfhd", be32(0) + be32(1)) + trackFragment) + box("mdat", [1, 2, 3])
    }

    static func movie(movieTimescale: UInt32 = 1_000, tracks: [[UInt8]]) -> [UInt8] {
        box("ftyp", Array("iso6".utf8) + be32(0)) + box("moov", box("mvhd", be32(0) + be32(0) + be32(0) + be32(movieTimescale) + Array(repeating: 0, count: 88)) + tracks.flatMap { $0 })
    }

    func time(of bytes: [UInt8]) throws -> UInt64 {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try GeneratedFile.write(to: directory.file("media.mp4")) { try $0.append(bytes) }
        return try FragmentedMP4Timing.firstPresentationTime(initializationAtPath: directory.file("media.mp4"), segmentAtPath: directory.file("media.mp4"))
    }

    @Test func decodeTimeAndCompositionOffsetLessTheEditsMediaTime() throws {
        // 12,800 ticks a second: decode time 10 s, offset 1,024, edit media time 1,024 → 10 s.
        let video = Self.track(id: 1, timescale: 12_800, handler: "vide", edits: [(10_000, 1_024)])
        #expect(try time(of: Self.movie(tracks: [video]) + Self.fragment(id: 1, decodeTime: 128_000, offset: 1_024)) == 900_000)
        // An empty edit of 2 s (movie timescale 1,000) delays it by 2 s.
        let delayed = Self.track(id: 1, timescale: 12_800, handler: "vide", edits: [(2_000, -1), (10_000, 0)])
        #expect(try time(of: Self.movie(tracks: [delayed]) + Self.fragment(id: 1, decodeTime: 0, offset: 0)) == 180_000)
    }

    @Test func theVideoTracksFragmentIsTheOneRead() throws {
        let audio = Self.track(id: 1, timescale: 48_000, handler: "soun", edits: [])
        let video = Self.track(id: 2, timescale: 90_000, handler: "vide", edits: [])
        let bytes = Self.movie(tracks: [audio, video]) + Self.fragment(id: 1, decodeTime: 48_000, offset: 0) + Self.fragment(id: 2, decodeTime: 45_000, offset: 0)
        #expect(try time(of: bytes) == 45_000)
    }

    @Test func aTimeBeyondTheClockWraps() throws {
        let video = Self.track(id: 1, timescale: 90_000, handler: "vide", edits: [])
        #expect(try time(of: Self.movie(tracks: [video]) + Self.fragment(id: 1, decodeTime: (1 << 33) + 5, offset: 0)) == 5)
    }

    @Test(arguments: [
        ("not MP4 at all", Array("WEBVTT\n".utf8), "no movie box"),
        ("a movie box longer than the file", Array(movie(tracks: []).dropLast(4)), "no movie box"),
        ("no track", movie(tracks: []), "no track with a timescale"),
        ("no fragment", movie(tracks: [track(id: 1, timescale: 90_000, handler: "vide", edits: [])]), "no fragment"),
        (
            "a fragment of another track",
            movie(tracks: [track(id: 1, timescale: 90_000, handler: "vide", edits: [])]) + fragment(id: 7, decodeTime: 1, offset: 0),
            "no fragment"
        ),
    ])
    func brokenMediaIsRefusedByName(_ name: String, bytes: [UInt8], reason: String) throws {
        let error = #expect(throws: ReadError.self, "\(name)") { try time(of: bytes) }
        #expect(error?.diagnostic.code == .hlsPlaylistNoMedia, "\(name)")
        #expect(error?.diagnostic.message.contains(reason) == true, "\(name): \(String(describing: error))")
        #expect(error?.path?.hasSuffix("media.mp4") == true, "\(name)")
    }
}
