import CueKit
import CueKitHLS
import CueKitTestSupport
import Testing

/// The time a rendition aligns to, found through playlists to the first TS segment.
@Suite struct HLSMediaAlignmentTests {
    typealias Stream = MPEGTransportStreamTimingTests

    /// A folder with `video/seg0.ts` (first video PTS 133200), its CRLF media playlist, and a
    /// multivariant playlist naming it.
    func folder() -> TemporaryDirectory {
        let scratch = TemporaryDirectory()
        ExternalProcess.writeBytes(
            [Stream.programAssociation, Stream.programMap, Stream.pes(pid: Stream.videoPID, streamID: 0xE0, pts: 133_200)].flatMap { $0 },
            to: scratch.file("seg0.ts"))
        scratch.write("#EXTM3U\r\n#EXT-X-TARGETDURATION:4\r\n#EXTINF:4.000,\r\nseg0.ts\r\n#EXT-X-ENDLIST\r\n", to: "video.m3u8")
        scratch.write("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000\nvideo.m3u8\n", to: "master.m3u8")
        return scratch
    }

    @Test func aMediaPlaylistAndAMultivariantOneLeadToTheFirstSegmentsPTS() throws {
        let scratch = folder()
        defer { scratch.remove() }
        #expect(try HLSMediaAlignment.mpegTimestamp(alignedTo: scratch.file("video.m3u8")) == 133_200)
        #expect(try HLSMediaAlignment.mpegTimestamp(alignedTo: scratch.file("master.m3u8")) == 133_200)
        #expect(try HLSMediaAlignment.mpegTimestamp(alignedTo: scratch.file("seg0.ts")) == 133_200)
    }

    @Test func whatLeadsToNoTransportStreamIsALocatedError() throws {
        let scratch = folder()
        defer { scratch.remove() }
        scratch.write("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.000,\nhttps://cdn.example/seg0.ts\n", to: "remote.m3u8")
        scratch.write("#EXTM3U\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:4.000,\nseg0.m4s\n", to: "fmp4.m3u8")
        scratch.write("#EXTM3U\n#EXT-X-ENDLIST\n", to: "empty.m3u8")
        for (name, line) in [("remote.m3u8", 4), ("fmp4.m3u8", 4)] {
            let error = try #require(throws: ReadError.self) { try HLSMediaAlignment.mpegTimestamp(alignedTo: scratch.file(name)) }
            #expect(error.diagnostic.code == .hlsPlaylistNoMedia)
            #expect(error.diagnostic.location == SourceLocation(line: line, column: 1), "\(name)")
            #expect(error.path == scratch.file(name))
        }
        let empty = try #require(throws: ReadError.self) { try HLSMediaAlignment.mpegTimestamp(alignedTo: scratch.file("empty.m3u8")) }
        #expect(empty.diagnostic.message.contains("lists no segment"))
    }
}
