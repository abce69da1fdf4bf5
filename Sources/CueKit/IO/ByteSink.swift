#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a writer's bytes go: memory, a file, standard output.
///
/// Writers hand over bytes as they produce them, cue by cue, so that no writer ever builds a whole
/// file in memory.
public protocol ByteSink {
    /// Takes bytes; a sink may buffer them until ``flush()``.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Pushes buffered bytes to their destination.
    mutating func flush() throws
}

extension ByteSink {
    /// Takes the bytes of an array.
    public mutating func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Takes the UTF-8 bytes of a string.
    public mutating func write(_ string: String) throws {
        var copy = string
        try copy.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }
}

/// A sink that keeps everything in memory.
public struct MemorySink: ByteSink, Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8] = []

    /// Creates an empty sink.
    public init() {}

    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    public mutating func flush() throws {}

    /// The bytes decoded as UTF-8.
    public var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// A buffered sink over an open file descriptor (standard output, or a file a caller opened).
///
/// Bytes are collected into a buffer of ``bufferSize`` and written with `write(2)` when it fills, so
/// small writes cost no system call. The descriptor is not closed by the sink.
public struct FileDescriptorSink: ByteSink {
    /// The buffer size: 64 KiB.
    public static let bufferSize = 64 * 1024

    /// The descriptor written to.
    public let descriptor: Int32
    /// The path named in error messages (`-` for standard output).
    public let path: String
    private var buffer: [UInt8] = []

    /// Creates a sink writing to `descriptor`; `path` names it in errors.
    public init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
        buffer.reserveCapacity(Self.bufferSize)
    }

    /// A sink on standard output.
    public static func standardOutput() -> FileDescriptorSink {
        FileDescriptorSink(descriptor: 1, path: "-")
    }

    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > Self.bufferSize {
            try flush()
            if bytes.count >= Self.bufferSize {
                try writeFully(bytes)
                return
            }
        }
        buffer.append(contentsOf: bytes)
    }

    public mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeFully($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeFully(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw IOFailure.writing(path, errno: errno)
            }
            offset += written
        }
    }
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
