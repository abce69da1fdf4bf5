/// The input cannot be read as a track at all: not a file of the expected format, not well-formed
/// XML, over a configured limit, or an I/O failure.
///
/// Recoverable problems are ``Diagnostic``s instead; a reader throws this only where its format's
/// spec says to stop (for WebVTT: a missing `WEBVTT` signature).
public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and where, with `severity` `.error`.
    public var diagnostic: Diagnostic
    /// The file the error is about, when known.
    public var path: String?

    /// Creates an error.
    public init(_ code: DiagnosticCode, at location: SourceLocation?, _ message: String, path: String? = nil) {
        self.diagnostic = Diagnostic(.error, code, at: location, message)
        self.path = path
    }

    /// The same error, naming the file it is about.
    public func inFile(_ path: String) -> ReadError {
        var copy = self
        copy.path = path
        return copy
    }

    /// `file:line:column: error: message [code]`.
    public var description: String { diagnostic.formatted(file: path) }
}
