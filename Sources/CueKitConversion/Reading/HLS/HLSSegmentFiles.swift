#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CueKit

/// The files a rendition's segments are read from, one open at a time: segments that are byte
/// ranges of one file (`EXT-X-BYTERANGE`) are read through one descriptor, opened once for all
/// of them, where opening the file for each would cost a system call pair a segment.
final class HLSSegmentFiles {
    private var openPath: String?
    private var descriptor: Int32 = -1
    private var size = 0

    /// One segment: the bytes `range` of an open file (the whole file when the playlist names no
    /// range).
    struct Segment {
        let descriptor: Int32
        let path: String
        let range: Range<Int>

        /// The segment's first 16 bytes (fewer when it is shorter): enough to tell a playlist.
        func firstBytes() throws -> [UInt8] {
            var bytes: [UInt8] = []
            try FileByteSource.forEachChunk(of: descriptor, in: range.lowerBound..<min(range.upperBound, range.lowerBound + 16), path: path, chunkSize: 16) {
                bytes.append(contentsOf: $0)
            }
            return bytes
        }

        /// Calls `body` with each chunk of the segment.
        func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
            try FileByteSource.forEachChunk(of: descriptor, in: range, path: path, chunkSize: FileByteSource.defaultChunkSize, body)
        }
    }

    /// The segment `range` of the file at `path` (all of it for nil), the file opened unless it
    /// is the one open. Throws a ``ReadError`` (`io-read`) when it cannot be opened or is not a
    /// regular file.
    func segment(_ path: String, range: Range<Int>?) throws -> Segment {
        if path != openPath {
            closeFile()
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw IOFailure.reading(path, errno: errno) }
            var status = stat()
            guard fstat(opened, &status) == 0 else {
                let code = errno
                close(opened)
                throw IOFailure.reading(path, errno: code)
            }
            guard (status.st_mode & S_IFMT) == S_IFREG else {
                close(opened)
                throw IOFailure.reading(path, errno: (status.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL)
            }
            descriptor = opened
            openPath = path
            size = Int(status.st_size)
        }
        return Segment(descriptor: descriptor, path: path, range: range ?? 0..<size)
    }

    /// Closes the file open.
    func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        openPath = nil
    }
}
