import CueKit

/// The first presentation time of an MPEG-2 transport stream (ISO/IEC 13818-1), read from its bytes:
/// what an HLS subtitle segment's `X-TIMESTAMP-MAP` aligns to (RFC 8216, section 3.5).
///
/// The stream is read as 188-byte TS packets, each starting with the sync byte `0x47`. The program
/// association table (PID 0) names the program map table, which names the elementary streams; the
/// first PES packet header with a PTS on the first video stream gives the time. Without a PAT or
/// PMT, or without a video stream, the first PES with a PTS on any stream does.
public enum MPEGTransportStreamTiming {
    /// The size of a TS packet.
    public static let packetSize = 188
    /// How far a stream is read for its first PTS: 16 MiB, far past the first frame of any segment.
    public static let maximumScannedBytes = 16 << 20

    /// The first PTS (90 kHz ticks, below 2^33) of the transport stream in the file at `path`.
    /// Throws a `ReadError` naming the file: not a transport stream (with the byte where the sync
    /// byte is missing), or no PES packet with a PTS.
    public static func firstPresentationTime(fileAtPath path: String) throws -> UInt64 {
        var scanner = Scanner()
        var buffered: [UInt8] = []
        var consumed = 0
        struct Done: Error {}
        do {
            try FileByteSource(path: path).forEachChunk { chunk in
                buffered.append(contentsOf: chunk)
                var offset = 0
                while buffered.count - offset >= packetSize {
                    try buffered.withUnsafeBytes { bytes in
                        try scanner.take(
                            UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + packetSize]), at: consumed + offset, path: path)
                    }
                    offset += packetSize
                    if scanner.isDone { throw Done() }
                }
                buffered.removeFirst(offset)
                consumed += offset
                if consumed >= maximumScannedBytes { throw Done() }
            }
        } catch is Done {}
        if let time = scanner.result { return time }
        if scanner.packets == 0 {
            throw ReadError(
                .hlsNotTransportStream, at: nil, "the file holds no whole 188-byte TS packet; it is not an MPEG-2 transport stream",
                path: path)
        }
        throw ReadError(
            .hlsNoPresentationTime, at: nil,
            "no PES packet with a presentation time (PTS) in the first \(scanner.packets) TS packets (bytes 0 to \(scanner.packets * packetSize)); there is no time to align to",
            path: path)
    }

    /// The packet-by-packet state of the search.
    struct Scanner {
        private(set) var packets = 0
        private var programMapPIDs: Set<Int> = []
        private var videoPID: Int?
        private var sawProgramMap = false
        private var firstAnyStream: UInt64?

        /// True once the video stream's first PTS is known.
        private(set) var videoTime: UInt64?

        /// True once the time is known: the video stream's first PTS, or any stream's when the
        /// program map names no video stream.
        var isDone: Bool { videoTime != nil || (sawProgramMap && videoPID == nil && firstAnyStream != nil) }

        /// The video stream's first PTS, else the first PTS of any stream.
        var result: UInt64? { videoTime ?? firstAnyStream }

        mutating func take(_ packet: UnsafeRawBufferPointer, at offset: Int, path: String) throws {
            guard packet[0] == 0x47 else {
                throw ReadError(
                    .hlsNotTransportStream, at: nil,
                    "byte \(offset) should start a TS packet with the sync byte 0x47; it is 0x\(String(packet[0], radix: 16, uppercase: true)): not an MPEG-2 transport stream",
                    path: path)
            }
            packets += 1
            let unitStart = packet[1] & 0x40 != 0
            let pid = Int(packet[1] & 0x1F) << 8 | Int(packet[2])
            let adaptation = (packet[3] >> 4) & 0x3
            guard adaptation & 0x1 != 0 else { return }  // no payload
            var start = 4
            if adaptation & 0x2 != 0 { start += 1 + Int(packet[4]) }
            guard unitStart, start < packet.count, pid != 0x1FFF else { return }
            let payload = UnsafeRawBufferPointer(rebasing: packet[start...])
            if pid == 0 {
                readProgramAssociation(payload)
            } else if programMapPIDs.contains(pid) {
                readProgramMap(payload)
            } else if let time = Self.presentationTime(ofPESHeader: payload) {
                if firstAnyStream == nil { firstAnyStream = time }
                if pid == videoPID, videoTime == nil { videoTime = time }
            }
        }

        /// The section after the pointer field, when it is whole in this packet.
        private static func section(_ payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
            guard let pointer = payload.first else { return nil }
            let start = 1 + Int(pointer)
            guard payload.count >= start + 3 else { return nil }
            let length = Int(payload[start + 1] & 0x0F) << 8 | Int(payload[start + 2])
            guard payload.count >= start + 3 + length, length >= 9 else { return nil }
            // The section without its CRC.
            return UnsafeRawBufferPointer(rebasing: payload[start..<start + 3 + length - 4])
        }

        private mutating func readProgramAssociation(_ payload: UnsafeRawBufferPointer) {
            guard let section = Self.section(payload), section[0] == 0x00 else { return }
            var index = 8
            while index + 4 <= section.count {
                let program = Int(section[index]) << 8 | Int(section[index + 1])
                let pid = Int(section[index + 2] & 0x1F) << 8 | Int(section[index + 3])
                if program != 0 { programMapPIDs.insert(pid) }
                index += 4
            }
        }

        private mutating func readProgramMap(_ payload: UnsafeRawBufferPointer) {
            guard !sawProgramMap, let section = Self.section(payload), section[0] == 0x02, section.count >= 12 else { return }
            sawProgramMap = true
            let programInfoLength = Int(section[10] & 0x0F) << 8 | Int(section[11])
            var index = 12 + programInfoLength
            while index + 5 <= section.count {
                let streamType = section[index]
                let pid = Int(section[index + 1] & 0x1F) << 8 | Int(section[index + 2])
                let infoLength = Int(section[index + 3] & 0x0F) << 8 | Int(section[index + 4])
                if videoPID == nil, Self.videoStreamTypes.contains(streamType) { videoPID = pid }
                index += 5 + infoLength
            }
        }

        /// MPEG-1/2 video, MPEG-4 part 2, H.264, H.265, and their variants (ISO/IEC 13818-1, table 2-34).
        static let videoStreamTypes: Set<UInt8> = [0x01, 0x02, 0x10, 0x1B, 0x20, 0x24, 0x42, 0xEA]

        /// The PTS of a PES packet header (ISO/IEC 13818-1, section 2.4.3.6), when it has one.
        static func presentationTime(ofPESHeader bytes: UnsafeRawBufferPointer) -> UInt64? {
            guard bytes.count >= 14, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1 else { return nil }
            let streamID = bytes[3]
            // Streams without the optional PES header: padding, private 2, ECM, EMM, directory, DSMCC, H.222.1 E.
            let withoutHeader: Set<UInt8> = [0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xF2, 0xF8, 0xFF]
            guard !withoutHeader.contains(streamID), bytes[6] & 0xC0 == 0x80, bytes[7] & 0x80 != 0 else { return nil }
            let p = bytes
            let high = UInt64((p[9] >> 1) & 0x07) << 30
            let middle = (UInt64(p[10]) << 7 | UInt64(p[11] >> 1)) << 15
            let low = UInt64(p[12]) << 7 | UInt64(p[13] >> 1)
            return high | middle | low
        }
    }
}

extension DiagnosticCode {
    /// A file given as MPEG-2 TS media that is not one (no 188-byte packets, a missing sync byte).
    public static let hlsNotTransportStream: DiagnosticCode = "hls-not-transport-stream"
    /// A transport stream with no PES packet carrying a presentation time.
    public static let hlsNoPresentationTime: DiagnosticCode = "hls-no-presentation-time"
}
