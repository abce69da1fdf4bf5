/// Output could not be created, written, flushed or renamed: a missing folder, a full disk, a
/// closed pipe, a destination that is a folder.
///
/// Sinks throw it (``AtomicFileSink``, ``FileDescriptorSink``); a reader never does, so a caller
/// tells "the input is bad" (``ReadError``) from "the output cannot be written" by type.
public struct WriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code a write failure is reported with: `io-write`.
    public static let code: DiagnosticCode = "io-write"

    /// The destination, as given (`-` for standard output).
    public var path: String
    /// The system's error number (`errno`).
    public var systemError: Int32
    /// `cannot write 'path': No space left on device` (`<stdout>` for `-`).
    public var message: String

    /// The failure of a write to `path` with the system's `errno`.
    public init(path: String, errno code: Int32) {
        self.path = path
        self.systemError = code
        self.message = "cannot write '\(path == "-" ? "<stdout>" : path)': \(IOFailure.systemMessage(code))"
    }

    public var description: String { message }
}
