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

    /// Prepares to read `path` (`-` for standard input). Nothing is opened until ``forEachChunk(_:)``.
    public init(path: String, chunkSize: Int = FileByteSource.defaultChunkSize) throws {
        precondition(chunkSize > 0, "chunk size must be positive")
        self.path = path
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
    /// Throws ``ReadError`` with code `io-read` when the file cannot be opened or read.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor: Int32
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

    /// Reads the whole file into memory. For small files and tests; streaming code uses
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
