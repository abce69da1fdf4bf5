#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CueKit

/// The body of a document being written, held until its head can be written before it.
///
/// Bytes stay in memory up to a limit; past it they go to a temporary file that is unlinked as
/// soon as it is open, so that nothing is left behind whatever becomes of the process.
struct TTMLBodySpool {
    /// How the unlinked file is named in errors.
    static let name = "<TTML body spool in \(TemporaryFiles.folder)>"
    private let memoryLimit: Int
    /// The bytes held in memory, which paragraphs are written into (shared by copies of the
    /// spool, as its file is).
    let buffer: TTMLByteBuffer
    private var descriptor: Int32 = -1

    init(memoryLimit: Int) {
        self.memoryLimit = max(memoryLimit, 64 * 1024)
        buffer = TTMLByteBuffer(capacity: min(self.memoryLimit, 256 * 1024))
    }

    /// Called after each paragraph written into ``buffer``: writes the memory out to the file when
    /// it is full.
    mutating func paragraphEnded() throws {
        if buffer.count >= memoryLimit { try spill() }
    }

    /// Hands every byte, in order, to `sink`, then releases the file.
    mutating func drain(into sink: inout some ByteSink) throws {
        defer { close() }
        if descriptor >= 0 {
            try spill()
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw WriteError(path: Self.name, errno: errno) }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw WriteError(path: Self.name, errno: errno)
                }
                if count == 0 { break }
                try chunk.withUnsafeBytes { try sink.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            }
        } else {
            try sink.write(UnsafeRawBufferPointer(buffer.bytes))
        }
        buffer.release()
    }

    /// Releases the file, if one was opened.
    mutating func close() {
        if descriptor >= 0 {
            _ = closeDescriptor(descriptor)
            descriptor = -1
        }
    }

    private mutating func spill() throws {
        if descriptor < 0 {
            var template = Array((TemporaryFiles.folder + "/cuekit-ttml-body-XXXXXX").utf8CString)
            descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else {
                throw WriteError(path: TemporaryFiles.folder + "/cuekit-ttml-body-XXXXXX", errno: errno)
            }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        var written = 0
        while written < buffer.count {
            let count = writeDescriptor(descriptor, buffer.bytes.baseAddress! + written, buffer.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                throw WriteError(path: Self.name, errno: errno)
            }
            written += count
        }
        buffer.removeAll()
    }
}

// The struct's own `close()` hides the C function inside it.
private func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(descriptor, bytes, count) }
