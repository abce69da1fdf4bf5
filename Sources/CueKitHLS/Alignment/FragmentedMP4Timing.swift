import CueKit

/// The earliest presentation time of fragmented MP4 media (ISO/IEC 14496-12), in 90 kHz ticks:
/// what an HLS subtitle segment's `X-TIMESTAMP-MAP` aligns to when the video is fMP4 (RFC 8216bis,
/// section 3.1.4: the `MPEGTS` value is then the media time in a 90 kHz timescale).
///
/// The initialization segment's `moov` gives the video track (`hdlr` `vide`, else the first
/// track), its `mdhd` timescale and its edit list's first media time; the first media segment's
/// `moof` gives that track's `tfdt` (base media decode time) and its first sample's composition
/// offset (`trun`). The earliest presentation time is the empty edits' delay + decode time +
/// composition offset − the first edit's media time, scaled to 90 kHz and wrapped modulo 2^33
/// (ffmpeg's `-output_ts_offset` is such an empty edit). Only the boxes on that path are read;
/// `mdat` is skipped without being read.
public enum FragmentedMP4Timing {
    /// How much of a file is looked at: 16 MiB of boxes before the first `moof` is far past any
    /// real initialization segment.
    public static let maximumScannedBytes = 16 << 20

    /// The earliest presentation time (90 kHz ticks, below 2^33) of the first fragment of the
    /// media segment at `segmentPath`, timed by the initialization segment at `initializationPath`
    /// (the same file for self-initializing media). Throws a `ReadError` naming the file.
    public static func firstPresentationTime(initializationAtPath initializationPath: String, segmentAtPath segmentPath: String) throws
        -> UInt64
    {
        let header = try Self.bytes(of: initializationPath)
        guard let movie = Box.first("moov", in: header[...]) else {
            throw ReadError(.hlsPlaylistNoMedia, at: nil, "no movie box (moov): not an fMP4 initialization segment", path: initializationPath)
        }
        let tracks = Box.all("trak", in: movie)
        guard let track = tracks.first(where: { Self.handler(of: $0) == "vide" }) ?? tracks.first,
            let trackID = Self.trackID(of: track), let timescale = Self.timescale(of: track), timescale > 0
        else {
            throw ReadError(.hlsPlaylistNoMedia, at: nil, "no track with a timescale in the movie box", path: initializationPath)
        }
        let movieTimescale = Box.first("mvhd", in: movie).flatMap { header in header.first.flatMap { Box.uint32(header, at: 4 + ($0 == 1 ? 16 : 8)) } }
        let edits = Self.edits(of: track)
        // The empty edits' delay, from the movie's timescale into the track's.
        let delay = movieTimescale.map { $0 > 0 ? edits.delay * Int64(timescale) / Int64($0) : 0 } ?? 0
        let segment = segmentPath == initializationPath ? header : try Self.bytes(of: segmentPath)
        for fragment in Box.all("moof", in: segment[...]) {
            for trackFragment in Box.all("traf", in: fragment) where Self.fragmentTrackID(of: trackFragment) == trackID {
                guard let decodeTime = Self.baseMediaDecodeTime(of: trackFragment) else { continue }
                let presentation = delay + Int64(bitPattern: decodeTime) + Int64(Self.firstCompositionOffset(of: trackFragment) ?? 0) - edits.mediaTime
                let modulus = Int64(1) << 33
                let ticks = (presentation.multipliedReportingOverflow(by: 90_000).partialValue / Int64(timescale)) % modulus
                return UInt64(ticks < 0 ? ticks + modulus : ticks)
            }
        }
        throw ReadError(.hlsPlaylistNoMedia, at: nil, "no fragment (moof) of track \(trackID) with a decode time (tfdt)", path: segmentPath)
    }

    private static func bytes(of path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        struct Enough: Error {}
        do {
            try FileByteSource(path: path).forEachChunk { chunk in
                bytes.append(contentsOf: chunk)
                if bytes.count >= maximumScannedBytes { throw Enough() }
            }
        } catch is Enough {}
        return bytes
    }

    private static func handler(of track: ArraySlice<UInt8>) -> String? {
        guard let media = Box.first("mdia", in: track), let handler = Box.first("hdlr", in: media), handler.count >= 12 else { return nil }
        // version and flags (4), pre_defined (4), handler_type (4).
        return String(decoding: handler.dropFirst(8).prefix(4), as: UTF8.self)
    }

    private static func trackID(of track: ArraySlice<UInt8>) -> UInt32? {
        guard let header = Box.first("tkhd", in: track), let version = header.first else { return nil }
        // version and flags, then creation and modification times (4 or 8 bytes each).
        return Box.uint32(header, at: 4 + (version == 1 ? 16 : 8))
    }

    private static func timescale(of track: ArraySlice<UInt8>) -> UInt32? {
        guard let media = Box.first("mdia", in: track), let header = Box.first("mdhd", in: media), let version = header.first else { return nil }
        return Box.uint32(header, at: 4 + (version == 1 ? 16 : 8))
    }

    /// The track's edit list: the duration of its leading empty edits (movie timescale), and the
    /// media time its first real edit starts from (track timescale); zeros without one.
    private static func edits(of track: ArraySlice<UInt8>) -> (delay: Int64, mediaTime: Int64) {
        guard let edits = Box.first("edts", in: track), let list = Box.first("elst", in: edits), let version = list.first,
            let count = Box.uint32(list, at: 4)
        else { return (0, 0) }
        // Each entry: segment duration, then media time (signed), 4 or 8 bytes each, then the rate.
        let entrySize = version == 1 ? 20 : 12
        var delay: Int64 = 0
        for entry in 0..<Int(min(count, 16)) {
            let offset = 8 + entry * entrySize
            let duration: Int64
            let mediaTime: Int64
            if version == 1 {
                guard let length = Box.uint64(list, at: offset), let time = Box.uint64(list, at: offset + 8) else { break }
                (duration, mediaTime) = (Int64(bitPattern: length), Int64(bitPattern: time))
            } else {
                guard let length = Box.uint32(list, at: offset), let time = Box.uint32(list, at: offset + 4) else { break }
                (duration, mediaTime) = (Int64(length), Int64(Int32(bitPattern: time)))
            }
            // An empty edit (media time -1) delays the track by its duration.
            guard mediaTime >= 0 else {
                delay += duration
                continue
            }
            return (delay, mediaTime)
        }
        return (delay, 0)
    }

    private static func fragmentTrackID(of trackFragment: ArraySlice<UInt8>) -> UInt32? {
        guard let header = Box.first("tfhd", in: trackFragment) else { return nil }
        return Box.uint32(header, at: 4)
    }

    private static func baseMediaDecodeTime(of trackFragment: ArraySlice<UInt8>) -> UInt64? {
        guard let decode = Box.first("tfdt", in: trackFragment), let version = decode.first else { return nil }
        return version == 1 ? Box.uint64(decode, at: 4) : Box.uint32(decode, at: 4).map(UInt64.init)
    }

    private static func firstCompositionOffset(of trackFragment: ArraySlice<UInt8>) -> Int32? {
        guard let run = Box.first("trun", in: trackFragment), let flags = Box.uint32(run, at: 0).map({ $0 & 0xFF_FFFF }),
            flags & 0x800 != 0, let count = Box.uint32(run, at: 4), count > 0
        else { return nil }
        var offset = 8
        if flags & 0x001 != 0 { offset += 4 }  // data offset
        if flags & 0x004 != 0 { offset += 4 }  // first sample flags
        if flags & 0x100 != 0 { offset += 4 }  // sample duration
        if flags & 0x200 != 0 { offset += 4 }  // sample size
        if flags & 0x400 != 0 { offset += 4 }  // sample flags
        return Box.uint32(run, at: offset).map { Int32(bitPattern: $0) }
    }

    /// ISO BMFF boxes: a 32-bit size (1: a 64-bit size follows; 0: to the end), a four-character
    /// type, then the payload. `first` and `all` return payloads.
    enum Box {
        static func all(_ type: String, in bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
            var found: [ArraySlice<UInt8>] = []
            walk(bytes) { name, payload in
                if name == type { found.append(payload) }
                return true
            }
            return found
        }

        static func first(_ type: String, in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
            var found: ArraySlice<UInt8>?
            walk(bytes) { name, payload in
                guard name == type else { return true }
                found = payload
                return false
            }
            return found
        }

        /// Calls `body` with each box's type and payload in turn while it returns true; a box that
        /// runs past the bytes ends the walk.
        private static func walk(_ bytes: ArraySlice<UInt8>, _ body: (String, ArraySlice<UInt8>) -> Bool) {
            var offset = bytes.startIndex
            while bytes.endIndex - offset >= 8 {
                guard let size32 = uint32(bytes, at: offset - bytes.startIndex) else { return }
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                var header = 8
                var size = Int(size32)
                if size32 == 1 {
                    guard let size64 = uint64(bytes, at: offset - bytes.startIndex + 8), size64 < UInt64(Int.max) else { return }
                    size = Int(size64)
                    header = 16
                } else if size32 == 0 {
                    size = bytes.endIndex - offset
                }
                guard size >= header, size <= bytes.endIndex - offset else { return }
                guard body(type, bytes[(offset + header)..<(offset + size)]) else { return }
                offset += size
            }
        }

        static func uint32(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32? {
            let start = bytes.startIndex + offset
            guard offset >= 0, bytes.endIndex - start >= 4 else { return nil }
            return bytes[start..<(start + 4)].reduce(0) { $0 << 8 | UInt32($1) }
        }

        static func uint64(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt64? {
            let start = bytes.startIndex + offset
            guard offset >= 0, bytes.endIndex - start >= 8 else { return nil }
            return bytes[start..<(start + 8)].reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
