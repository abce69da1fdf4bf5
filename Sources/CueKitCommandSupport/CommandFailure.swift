#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exit statuses every `cuekit` command uses.
package enum ExitStatus: Int32 {
    /// Everything worked; the input is valid.
    case success = 0
    /// Some input is not valid (or, in a batch, some file failed).
    case invalidInput = 1
    /// The command line is wrong, or a file could not be read or written.
    case usageOrIOError = 2
}

/// A failure that ends the command: its message goes to standard error as
/// `cuekit: error: message`, and the process exits with its status.
package struct CommandFailure: Error {
    /// One line saying what failed and what to do about it.
    package var message: String
    /// The exit status.
    package var status: ExitStatus

    /// True when the message is a located diagnostic (`file:line:column: error: ... [code]`), which
    /// already says where and how bad: it is printed as it is, without `cuekit: error:`.
    package var isLocated = false

    /// A failure whose message is a diagnostic located in a file, printed as it is.
    package init(located diagnostic: String, status: ExitStatus) {
        self.init(diagnostic, status: status)
        isLocated = true
    }

    /// The line the failure is printed as on standard error.
    package var line: String { (isLocated ? "" : "cuekit: error: ") + message }

    package init(_ message: String, status: ExitStatus = .usageOrIOError) {
        self.message = message.escapingControlCharacters
        self.status = status
    }
}

/// Unbuffered writes to standard error, for messages that must appear even if the process dies.
package enum StandardError {
    package static func write(_ text: String) {
        var copy = text
        copy.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` whole (a write interrupted by a signal is taken up again).
    package static func write(bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = writeToStandardError(bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// True when standard error is a terminal (progress bars go there, and only then).
    package static var isTerminal: Bool { isatty(2) != 0 }
}

/// `write(2)` on standard error (a function of its own: inside ``StandardError`` the name `write`
/// is the type's own).
private func writeToStandardError(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(2, bytes, count)
}
