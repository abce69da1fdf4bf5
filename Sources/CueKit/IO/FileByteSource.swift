#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file, or standard input, in fixed-size chunks: the input side of every streaming reader.
///
/// One buffer of ``chunkSize`` bytes is reused for the whole file, so reading a file of any size
/// takes the same memory.
public struct FileByteSource: Sendable {
    /// The chunk size used unless a caller asks for another: 64 KiB.
    public static let defaultChunkSize = 64 * 1024

    /// The path read, or `-` for standard input.
    public let path: String
    /// The size of each read.
    public let chunkSize: Int
    /// The bytes of the file read, when not all of it: an HLS segment that is a sub-range of a
    /// file (`EXT-X-BYTERANGE`).
    public let byteRange: Range<Int>?

    /// Prepares to read `path` (`-` for standard input), or only the bytes `byteRange` of the
    /// file. Nothing is opened until ``forEachChunk(_:)``.
    public init(path: String, byteRange: Range<Int>? = nil, chunkSize: Int = FileByteSource.defaultChunkSize) throws {
        precondition(chunkSize > 0, "chunk size must be positive")
        precondition(byteRange.map { $0.lowerBound >= 0 } ?? true, "a byte range starts at 0 or later")
        self.path = path
        self.byteRange = byteRange
        self.chunkSize = chunkSize
    }

    /// The size in bytes of the regular file at `path`; nil for anything else (standard input, a
    /// pipe, a device, a folder, a path that cannot be read), whose size is not known beforehand.
    public static func regularFileSize(atPath path: String) -> Int? {
        var status = stat()
        guard path != "-", stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Calls `body` with each chunk of the file in order; the buffer is only valid during the call.
    ///
    /// Throws ``ReadError`` with code `io-read` when the file cannot be opened or read, or ends
    /// inside ``byteRange``.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor: Int32
        if let byteRange {
            guard path != "-" else { throw ReadError(IOFailure.readCode, at: nil, "a byte range of <stdin> cannot be read", path: path) }
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw IOFailure.reading(path, errno: errno) }
            defer { close(descriptor) }
            try Self.forEachChunk(of: descriptor, in: byteRange, path: path, chunkSize: chunkSize, body)
            return
        }
        if path == "-" {
            descriptor = 0
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw IOFailure.reading(path, errno: errno) }
        }
        defer { if descriptor != 0 { close(descriptor) } }
        if descriptor != 0 {
            var status = stat()
            if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                throw IOFailure.reading(path, errno: EISDIR)
            }
        }
        try Self.forEachChunk(of: descriptor, path: path, chunkSize: chunkSize, body)
    }

    /// Calls `body` with each chunk read from an open descriptor until its end (which it leaves
    /// open): for a stream opened once, such as a pipe. `path` names it in errors.
    public static func forEachChunk(
        of descriptor: Int32, path: String, chunkSize: Int = defaultChunkSize, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw IOFailure.reading(path, errno: errno)
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Calls `body` with each chunk of the bytes `range` of an open file, read with `pread` (the
    /// descriptor's offset is left as it was, so one descriptor serves ranges in any order).
    /// Throws a ``ReadError`` when the file ends before the range does.
    public static func forEachChunk(
        of descriptor: Int32, in range: Range<Int>, path: String, chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(chunkSize, max(range.count, 1)), alignment: 16)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let count = pread(descriptor, buffer.baseAddress, min(buffer.count, range.upperBound - offset), off_t(offset))
            if count < 0 {
                if errno == EINTR { continue }
                throw IOFailure.reading(path, errno: errno)
            }
            if count == 0 {
                throw ReadError(
                    IOFailure.readCode, at: nil,
                    "'\(path)' ends at byte \(offset), inside the byte range \(range.lowerBound)-\(range.upperBound - 1) asked for",
                    path: path)
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += count
        }
    }

    /// Reads the whole file (or its ``byteRange``) into memory. For small files and tests; streaming code uses
    /// ``forEachChunk(_:)``.
    public func readAll() throws -> [UInt8] {
        var bytes: [UInt8] = []
        try forEachChunk { bytes.append(contentsOf: $0) }
        return bytes
    }
}

/// Builds the errors of failed system calls, with the system's message: a ``ReadError`` for input,
/// a ``WriteError`` for output.
public enum IOFailure {
    /// The code of a failure to open or read input.
    public static let readCode: DiagnosticCode = "io-read"
    /// The code of a failure to create, write or rename output.
    public static let writeCode: DiagnosticCode = WriteError.code

    /// `cannot read 'path': No such file or directory`.
    public static func reading(_ path: String, errno code: Int32) -> ReadError {
        ReadError(readCode, at: nil, "cannot read '\(displayName(path))': \(systemMessage(code))", path: path)
    }

    /// `cannot write 'path': No space left on device` (`<stdout>` for `-`).
    public static func writing(_ path: String, errno code: Int32) -> WriteError {
        WriteError(path: path, errno: code)
    }

    /// The C library's text for an `errno` value.
    public static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    private static func displayName(_ path: String) -> String {
        path == "-" ? "<stdin>" : path
    }
}
