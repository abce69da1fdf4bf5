#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a large test input to a file through a small buffer, so that a test can make a file of
/// hundreds of megabytes without holding it in memory.
///
/// ```swift
/// try GeneratedFile.write(to: path) { file in
///     file.append("WEBVTT\n\n00:00.000 --> 00:01.000\n")
///     file.append(UInt8(ascii: "a"), count: 300 << 20)
/// }
/// ```
public struct GeneratedFile: ~Copyable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// How many bytes were appended so far.
    public private(set) var count = 0

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 20)
    }

    /// Creates (or truncates) the file at `path`, lets `body` append to it, and closes it.
    public static func write(to path: String, _ body: (inout GeneratedFile) throws -> Void) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw GeneratedFileError(path: path, errno: errno) }
        var file = GeneratedFile(descriptor: descriptor)
        defer { close(descriptor) }
        try body(&file)
        try file.flush()
    }

    /// Appends bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) throws {
        for byte in bytes {
            buffer.append(byte)
            count += 1
            if buffer.count >= 1 << 20 { try flush() }
        }
    }

    /// Appends a string's UTF-8.
    public mutating func append(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        count += text.utf8.count
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Appends `text` `count` times.
    public mutating func append(_ text: String, times: Int) throws {
        for _ in 0..<times { try append(text) }
    }

    /// Appends one byte `count` times, a megabyte per write.
    public mutating func append(_ byte: UInt8, count repeats: Int) throws {
        try flush()
        let block = [UInt8](repeating: byte, count: min(repeats, 1 << 20))
        var left = repeats
        while left > 0 {
            let run = min(left, block.count)
            try block.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[0..<run])) }
            count += run
            left -= run
        }
    }

    private mutating func flush() throws {
        try buffer.withUnsafeBytes { try write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = posixWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw GeneratedFileError(path: "", errno: errno)
            }
            offset += written
        }
    }
}

/// A generated file could not be written.
public struct GeneratedFileError: Error, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The `errno` of the failure.
    public var errno: Int32
    /// The failure in words.
    public var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}
