import CueKit

/// A parsed JSON document: its value, where each value starts, and what was odd about it.
///
/// CueKit parses Cast messages itself, on bytes, rather than through a general-purpose decoder, for
/// three reasons: diagnostics can point at a line and column, object keys keep their order, and
/// duplicate keys (which `JSON.parse` on the receiver silently resolves to the last value) are
/// reported. The grammar is RFC 8259's, strictly: no comments, no trailing commas, no `NaN`.
public struct CastJSONDocument: Sendable, Hashable {
    /// The document's value.
    public var value: CastJSONValue
    /// Where each value starts.
    public var locations: CastJSONLocations
    /// Warnings found while parsing (duplicate keys), in document order.
    public var diagnostics: [Diagnostic]

    /// The deepest nesting of arrays and objects accepted, so that no input can exhaust the stack.
    public static let maximumDepth = 512

    /// Parses a UTF-8 JSON text (a leading byte order mark is skipped).
    ///
    /// Throws a ``ReadError`` with code `cast-json-syntax` at the first byte that breaks the grammar.
    public init(parsing bytes: some Collection<UInt8>) throws(ReadError) {
        var parser = JSONParser(bytes: Array(bytes))
        let value = try parser.parseDocument()
        self.value = value
        self.locations = parser.locations
        self.diagnostics = parser.diagnostics
    }

    /// Parses JSON text held in a string.
    public init(parsing text: String) throws(ReadError) {
        try self.init(parsing: Array(text.utf8))
    }
}

/// The recursive-descent parser behind ``JSONDocument``: one pass over the bytes, tracking line and
/// column (in Unicode scalars) as it goes.
struct JSONParser {
    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var column = 1
    private var depth = 0
    private(set) var locations = CastJSONLocations()
    private(set) var diagnostics: [Diagnostic] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    mutating func parseDocument() throws(ReadError) -> CastJSONValue {
        skipWhitespace()
        guard offset < bytes.count else { throw failure("the document is empty; expected a JSON value") }
        let value = try parseValue(at: .root)
        skipWhitespace()
        if offset < bytes.count {
            throw failure("unexpected \(describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    private var here: SourceLocation { SourceLocation(line: line, column: column) }

    private func failure(_ message: String, at location: SourceLocation? = nil) -> ReadError {
        ReadError(.castJSONSyntax, at: location ?? here, message)
    }

    private func describeCurrent() -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// Moves past one byte, keeping line and column: CR, LF and CRLF end a line, and UTF-8
    /// continuation bytes do not count as columns.
    private mutating func advance() {
        let byte = bytes[offset]
        offset += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte == 0x0D {
            if offset < bytes.count && bytes[offset] == 0x0A { offset += 1 }
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: advance()
            default: return
            }
        }
    }

    private mutating func expect(_ literal: StaticString, producing value: CastJSONValue) throws(ReadError) -> CastJSONValue {
        let start = here
        let expected = literal.withUTF8Buffer { Array($0) }
        for byte in expected {
            guard offset < bytes.count, bytes[offset] == byte else {
                throw failure("expected '\(literal)'", at: start)
            }
            advance()
        }
        return value
    }

    private mutating func parseValue(at path: CastJSONPath) throws(ReadError) -> CastJSONValue {
        locations[path] = here
        guard offset < bytes.count else { throw failure("unexpected end of input; expected a JSON value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try parseObject(at: path)
        case UInt8(ascii: "["): return try parseArray(at: path)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", producing: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", producing: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", producing: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected \(describeCurrent()); expected a JSON value")
        }
    }

    private mutating func enter() throws(ReadError) {
        depth += 1
        if depth > CastJSONDocument.maximumDepth {
            throw failure("arrays and objects are nested more than \(CastJSONDocument.maximumDepth) deep")
        }
    }

    private mutating func parseObject(at path: CastJSONPath) throws(ReadError) -> CastJSONValue {
        try enter()
        advance()  // {
        var object = CastJSONObject()
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
            advance()
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeCurrent()); expected a member name in double quotes")
            }
            let keyLocation = here
            let key = try parseString()
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                throw failure("unexpected \(describeCurrent()); expected ':' after member name \"\(key)\"")
            }
            advance()
            skipWhitespace()
            let memberPath = path.appending(key)
            let value = try parseValue(at: memberPath)
            if object[key] != nil {
                diagnostics.append(
                    Diagnostic(
                        .warning, .castJSONDuplicateKey, at: keyLocation,
                        "\(memberPath) appears more than once in its object; a receiver's JSON.parse keeps the last value"
                    )
                )
            }
            object[key] = value
            skipWhitespace()
            guard offset < bytes.count else { throw failure("unexpected end of input; expected ',' or '}'") }
            if bytes[offset] == UInt8(ascii: ",") {
                advance()
                continue
            }
            if bytes[offset] == UInt8(ascii: "}") {
                advance()
                depth -= 1
                return .object(object)
            }
            throw failure("unexpected \(describeCurrent()); expected ',' or '}'")
        }
    }

    private mutating func parseArray(at path: CastJSONPath) throws(ReadError) -> CastJSONValue {
        try enter()
        advance()  // [
        var elements: [CastJSONValue] = []
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "]") {
            advance()
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(at: path.appending(index: elements.count)))
            skipWhitespace()
            guard offset < bytes.count else { throw failure("unexpected end of input; expected ',' or ']'") }
            if bytes[offset] == UInt8(ascii: ",") {
                advance()
                continue
            }
            if bytes[offset] == UInt8(ascii: "]") {
                advance()
                depth -= 1
                return .array(elements)
            }
            throw failure("unexpected \(describeCurrent()); expected ',' or ']'")
        }
    }

    private mutating func parseNumber() throws(ReadError) -> Double {
        let start = offset
        let startLocation = here
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while parser.offset < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.offset]) {
                parser.advance()
                count += 1
            }
            return count
        }
        if bytes[offset] == UInt8(ascii: "-") { advance() }
        guard offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) else {
            throw failure("expected a digit after '-'")
        }
        if bytes[offset] == UInt8(ascii: "0") {
            advance()
            if offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
                throw failure("numbers may not have leading zeros", at: startLocation)
            }
        } else {
            _ = digits(&self)
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            advance()
            guard digits(&self) > 0 else { throw failure("expected a digit after the decimal point") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            advance()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { advance() }
            guard digits(&self) > 0 else { throw failure("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw failure("the number \(text) is too large for a JavaScript receiver (it reads as Infinity)", at: startLocation)
        }
        return value
    }

    private mutating func parseString() throws(ReadError) -> String {
        advance()  // opening quote
        var scalars = String.UnicodeScalarView()
        while true {
            guard offset < bytes.count else { throw failure("unexpected end of input inside a string") }
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(try parseEscape())
            case 0x00..<0x20:
                throw failure("control character 0x\(String(byte, radix: 16, uppercase: true)) inside a string must be escaped")
            case 0x00..<0x80:
                scalars.append(Unicode.Scalar(byte))
                advance()
            default:
                scalars.append(try decodeUTF8Scalar())
            }
        }
    }

    private mutating func parseEscape() throws(ReadError) -> Unicode.Scalar {
        let start = here
        advance()  // backslash
        guard offset < bytes.count else { throw failure("unexpected end of input inside an escape") }
        let byte = bytes[offset]
        advance()
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try parseHexUnit(escapeStart: start)
            if (0xD800...0xDBFF).contains(unit) {
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw failure(
                        "lone high surrogate \\u\(String(unit, radix: 16, uppercase: true)) (a receiver would show U+FFFD)", at: start)
                }
                let lowStart = here
                advance()
                advance()
                let low = try parseHexUnit(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw failure("high surrogate not followed by a low surrogate", at: start)
                }
                let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                return Unicode.Scalar(value)!
            }
            guard let scalar = Unicode.Scalar(UInt32(unit)) else {
                throw failure("lone low surrogate \\u\(String(unit, radix: 16, uppercase: true))", at: start)
            }
            return scalar
        default:
            throw failure("'\\\(Character(Unicode.Scalar(byte)))' is not a JSON escape", at: start)
        }
    }

    private mutating func parseHexUnit(escapeStart: SourceLocation) throws(ReadError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard offset < bytes.count else { throw failure("unexpected end of input inside \\u escape", at: escapeStart) }
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\\u must be followed by four hexadecimal digits", at: escapeStart)
            }
            unit = unit << 4 | UInt16(digit)
            advance()
        }
        return unit
    }

    /// Decodes one multi-byte UTF-8 sequence, refusing overlong forms, surrogates and values past
    /// U+10FFFF (the Unicode standard's well-formed table, section 3.9).
    private mutating func decodeUTF8Scalar() throws(ReadError) -> Unicode.Scalar {
        let lead = bytes[offset]
        let length: Int
        var value: UInt32
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0: length = 3; value = 0; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xED: length = 3; value = 0x0D; upperBound = 0x9F
        case 0xF0: length = 4; value = 0; lowerBound = 0x90
        case 0xF1...0xF3: length = 4; value = UInt32(lead & 0x07)
        case 0xF4: length = 4; value = 0x04; upperBound = 0x8F
        default: throw failure("invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true))")
        }
        for index in 1..<length {
            guard offset + index < bytes.count else { throw failure("truncated UTF-8 sequence") }
            let byte = bytes[offset + index]
            let low = index == 1 ? lowerBound : 0x80
            let high = index == 1 ? upperBound : 0xBF
            guard (low...high).contains(byte) else { throw failure("invalid UTF-8 sequence") }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        for _ in 0..<length { advance() }
        return Unicode.Scalar(value)!
    }
}
