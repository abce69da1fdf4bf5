import CueKit
import CueKitHLS
import CueKitTestSupport
import Testing

/// Transport streams made byte by byte: the PAT, the PMT and PES headers as ISO/IEC 13818-1 lays
/// them out, so that each case shows one rule of the search.
@Suite struct MPEGTransportStreamTimingTests {
    static let programMapPID = 0x1000, videoPID = 0x100, audioPID = 0x101

    /// One 188-byte packet; a short payload is padded with adaptation-field stuffing.
    static func packet(pid: Int, unitStart: Bool, _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count <= 184)
        var bytes: [UInt8] = [0x47, UInt8(pid >> 8) | (unitStart ? 0x40 : 0), UInt8(pid & 0xFF)]
        let stuffing = 184 - payload.count
        if stuffing == 0 {
            bytes.append(0x10)
        } else {
            bytes.append(0x30)
            bytes.append(UInt8(stuffing - 1))
            if stuffing > 1 { bytes += [0x00] + [UInt8](repeating: 0xFF, count: stuffing - 2) }
        }
        return bytes + payload
    }

    /// A PSI section after its pointer field, with a CRC of zeros (not checked).
    static func section(table: UInt8, body: [UInt8]) -> [UInt8] {
        let length = 5 + body.count + 4
        return [0x00, table, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF), 0x00, 0x01, 0xC1, 0x00, 0x00] + body + [0, 0, 0, 0]
    }

    static let programAssociation = packet(
        pid: 0, unitStart: true, section(table: 0x00, body: [0x00, 0x01, 0xE0 | UInt8(programMapPID >> 8), UInt8(programMapPID & 0xFF)]))

    static let programMap = packet(
        pid: programMapPID, unitStart: true,
        section(
            table: 0x02,
            body: [0xE1, 0x00, 0xF0, 0x00]  // PCR PID 0x100, no program info
                + [0x0F, 0xE1, 0x01, 0xF0, 0x00]  // AAC audio on 0x101
                + [0x1B, 0xE1, 0x00, 0xF0, 0x00]))  // H.264 video on 0x100

    /// A PES packet header with a PTS (and a few payload bytes).
    static func pes(pid: Int, streamID: UInt8, pts: UInt64) -> [UInt8] {
        let time: [UInt8] = [
            0x21 | UInt8((pts >> 29) & 0x0E), UInt8((pts >> 22) & 0xFF), UInt8((pts >> 14) & 0xFE) | 1, UInt8((pts >> 7) & 0xFF),
            UInt8((pts << 1) & 0xFE) | 1,
        ]
        return packet(
            pid: pid, unitStart: true, [0x00, 0x00, 0x01, streamID, 0x00, 0x00, 0x80, 0x80, 0x05] + time + [0x00, 0x00, 0x00, 0x01])
    }

    func firstTime(of packets: [[UInt8]]) throws -> UInt64 {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        ExternalProcess.writeBytes(packets.flatMap { $0 }, to: scratch.file("media.ts"))
        return try MPEGTransportStreamTiming.firstPresentationTime(fileAtPath: scratch.file("media.ts"))
    }

    @Test func theVideoStreamThePMTNamesGivesTheTimeEvenAfterAnAudioPacket() throws {
        let packets = [
            Self.programAssociation, Self.programMap, Self.pes(pid: Self.audioPID, streamID: 0xC0, pts: 120_000),
            Self.pes(pid: Self.videoPID, streamID: 0xE0, pts: 126_000),
        ]
        #expect(try firstTime(of: packets) == 126_000)
    }

    @Test func withoutAProgramMapTheFirstPESWithAPTSGivesIt() throws {
        let packets = [
            Self.pes(pid: Self.audioPID, streamID: 0xC0, pts: 120_000), Self.pes(pid: Self.videoPID, streamID: 0xE0, pts: 126_000),
        ]
        #expect(try firstTime(of: packets) == 120_000)
    }

    @Test func all33BitsOfThePTSAreRead() throws {
        let largest: UInt64 = (1 << 33) - 1
        #expect(
            try firstTime(of: [Self.programAssociation, Self.programMap, Self.pes(pid: Self.videoPID, streamID: 0xE0, pts: largest)])
                == largest)
        #expect(try firstTime(of: [Self.pes(pid: Self.videoPID, streamID: 0xE0, pts: 0x1_2345_6789)]) == 0x1_2345_6789)
    }

    @Test func aStreamWithNoPESIsALocatedError() throws {
        let error = try #require(throws: ReadError.self) { try firstTime(of: [Self.programAssociation, Self.programMap]) }
        #expect(error.diagnostic.code == .hlsNoPresentationTime)
        #expect(error.path?.hasSuffix("media.ts") == true)
        #expect(error.diagnostic.message.contains("first 2 TS packets (bytes 0 to 376)"))
    }

    @Test func aFileThatIsNotATransportStreamNamesTheByte() throws {
        var packets = [Self.programAssociation, Self.programMap]
        packets[1][0] = 0x00
        let error = try #require(throws: ReadError.self) { try firstTime(of: packets) }
        #expect(error.diagnostic.code == .hlsNotTransportStream)
        #expect(error.diagnostic.message.contains("byte 188 "))
        let short = try #require(throws: ReadError.self) { try firstTime(of: [[0x47, 0x00]]) }
        #expect(short.diagnostic.code == .hlsNotTransportStream)
    }
}
