/// A problem a reader or writer found, with where it is and what to do about it.
///
/// Readers recover from malformed input the way each format's spec says and report every departure
/// from its authoring rules as a diagnostic; validators and `cuekit validate` print them the way
/// compilers do: `file:line:column: error: message [code]`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious the problem is.
    public var severity: Severity
    /// A stable code naming the kind of problem, for filtering and for machines.
    public var code: DiagnosticCode
    /// Where the problem is; `nil` for problems of the output or the file as a whole.
    public var location: SourceLocation?
    /// A sentence a person reads: what is wrong, and what a reader does about it.
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ code: DiagnosticCode, at location: SourceLocation?, _ message: String) {
        self.severity = severity
        self.code = code
        self.location = location
        self.message = message
    }

    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Informational: nothing is wrong.
        case note
        /// The input breaks a rule but every conforming reader reads it the same way.
        case warning
        /// The input is not valid; a reader recovered (dropping or changing something).
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// `line:column: severity: message [code]`, as a compiler prints it (without a file name).
    public var description: String {
        formatted(file: nil)
    }

    /// `file:line:column: severity: message [code]`, leaving out what is unknown.
    public func formatted(file: String?) -> String {
        var bytes: [UInt8] = []
        DiagnosticLineWriter(file: file).append(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A stable identifier of a kind of diagnostic, such as `vtt-bad-timestamp`.
///
/// Codes are lower-case words joined by hyphens and start with the format they belong to (`vtt-`,
/// `srt-`, `ttml-`, `cast-`, `io-`). Each module declares its codes as static members, so new codes
/// do not need a change here.
public struct DiagnosticCode: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The code as printed.
    public var rawValue: String

    /// Creates a code.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a code from a literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension String {
    /// The text with every control character (C0, DEL, C1) written as a Swift escape (`\n`, `\t`,
    /// `\u{1B}`), so that text copied from a file or a file name cannot move the cursor, set the
    /// terminal's title or clear its screen, nor split one diagnostic line into two.
    public var escapingControlCharacters: String {
        // Byte by byte first: a control character is a byte under 0x20, 0x7F, or (C1) starts with
        // 0xC2; most text has none of them and is returned as it is without decoding a scalar. The
        // bytes are scanned in place where the string stores them contiguously (a native string
        // does), which costs a few instructions a byte rather than an index step each.
        func isControlByte(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F || byte == 0xC2 }
        let hasControlByte =
            utf8.withContiguousStorageIfAvailable { $0.contains(where: isControlByte) } ?? utf8.contains(where: isControlByte)
        guard hasControlByte, unicodeScalars.contains(where: Self.isControl) else {
            return self
        }
        var result = ""
        result.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            guard Self.isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
