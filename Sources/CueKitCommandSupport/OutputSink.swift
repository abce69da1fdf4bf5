import CueKit

/// Where a command's output goes: standard output for `-`, otherwise a file replaced atomically
/// (``AtomicFileSink``), so that an interrupted command never leaves a half-written file behind.
///
/// One concrete type for both, so that a writer generic over its sink is written once.
package struct OutputSink: ByteSink {
    // Two optionals rather than an enum: the buffered standard output sink is mutated in place,
    // never copied out and back (which would copy its buffer on every write).
    private var standardOutput: FileDescriptorSink?
    private let file: AtomicFileSink?
    /// The path as given (`-` for standard output).
    package let path: String

    /// Opens the destination; a missing folder or a read-only file fails here, before any work.
    package init(path: String) throws {
        self.path = path
        if path == "-" {
            standardOutput = .standardOutput()
            file = nil
        } else {
            standardOutput = nil
            file = try AtomicFileSink(path: path)
        }
    }

    package mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let file { try file.write(bytes) } else { try standardOutput?.write(bytes) }
    }

    package mutating func flush() throws {
        if let file { try file.flush() } else { try standardOutput?.flush() }
    }

    /// Makes the output final: flushes standard output, or renames the temporary file over the
    /// destination.
    package mutating func commit() throws {
        if let file { try file.commit() } else { try standardOutput?.flush() }
    }

    /// The file being written before it is committed, which can be read back; nil for standard output.
    package var temporaryPath: String? { file?.temporaryPath }

    /// Abandons a file output: the temporary file is removed and the destination left as it was.
    package func discard() {
        file?.discard()
    }

    /// Writes a whole text to `path` and commits it; I/O failures become a ``CommandFailure``
    /// (exit 2) naming the file.
    package static func write(_ text: String, to path: String) throws {
        do {
            var sink = try OutputSink(path: path)
            try sink.write(text)
            try sink.commit()
        } catch let error as WriteError {
            throw CommandFailure(error.message)
        }
    }
}
