#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CueKit

/// Prints a command's diagnostics on standard error as they come, one
/// `file:line:column: severity: message [code]` line each, for the streaming commands (convert,
/// segment, style) whose inputs may hold a diagnostic a cue.
///
/// Lines are collected and written together, whole, up to `PIPE_BUF` bytes a `write(2)`: a write
/// that size is atomic on a pipe, so the lines of conversions running side by side (a batch) never
/// interleave mid-line, and a track with thousands of diagnostics costs a system call for every
/// forty lines or so instead of one each. The prefix of the file named last (escaped once) is
/// kept. ``flush()`` writes what is held: call it before anything else goes to standard error, and
/// when the work ends (`defer`).
package struct DiagnosticPrinter {
    /// The most bytes written at once: `PIPE_BUF` (4,096 on Linux).
    static let batchSize = Int(PIPE_BUF)

    private var lineWriter: (file: String, writer: DiagnosticLineWriter)?
    private var held: [UInt8] = []

    package init() {}

    /// Prints `diagnostic`, located in `file`.
    package mutating func print(_ diagnostic: Diagnostic, file: String) {
        if lineWriter?.file != file { lineWriter = (file, DiagnosticLineWriter(file: file)) }
        let lineStart = held.count
        lineWriter!.writer.append(diagnostic, to: &held)
        held.append(UInt8(ascii: "\n"))
        guard held.count > Self.batchSize else { return }
        // The lines before this one go out together; this one waits for the next (or goes alone
        // when it is longer than a batch).
        if lineStart > 0 {
            Self.write(held[..<lineStart])
            held.removeSubrange(..<lineStart)
        }
        if held.count > Self.batchSize { flush() }
    }

    /// Writes the lines held.
    package mutating func flush() {
        guard !held.isEmpty else { return }
        Self.write(held[...])
        held.removeAll(keepingCapacity: true)
    }

    private static func write(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { StandardError.write(bytes: $0) }
    }
}
