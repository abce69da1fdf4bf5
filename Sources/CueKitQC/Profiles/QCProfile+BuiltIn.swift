import CueKit

extension QCProfile {
    /// A built-in profile read from its JSON without `JSONDecoder`, whose generic decoding cost each
    /// `--qc` run about four million instructions at start-up (most of them the runtime's protocol
    /// conformance lookups); nil when the JSON holds anything this reader does not expect, and the
    /// caller then decodes it with `JSONDecoder`. Tested to read every built-in profile as
    /// `JSONDecoder` does.
    init?(builtInJSON bytes: [UInt8]) {
        do throws(BuiltInProfileReader.Unexpected) {
            var reader = BuiltInProfileReader(bytes: bytes)
            let root = try reader.document().object()
            name = try root.required("name").string()
            title = try root.required("title").string()
            source = try root["source"]?.string()
            rules = try QCRules(try root.required("rules"))
            children = try root["children"].map { value throws(BuiltInProfileReader.Unexpected) in try QCRules(value) }
            languages = try root["languages"].map { value throws(BuiltInProfileReader.Unexpected) in
                var languages: [String: LanguageRules] = [:]
                for (tag, entry) in try value.object() {
                    let fields = try entry.object()
                    languages[tag] = LanguageRules(
                        rules: try fields["rules"].map { value throws(BuiltInProfileReader.Unexpected) in try QCRules(value) },
                        children: try fields["children"].map { value throws(BuiltInProfileReader.Unexpected) in try QCRules(value) })
                }
                return languages
            }
        } catch {
            return nil
        }
    }
}

extension QCRules {
    /// Rules read from a built-in profile's JSON object, field by field as `Codable` names them.
    fileprivate init(_ value: BuiltInProfileReader.Value) throws(BuiltInProfileReader.Unexpected) {
        self.init()
        let rules = try value.object()
        if let fields = try rules["readingSpeed"]?.object() {
            readingSpeed = ReadingSpeed(
                maximumCharactersPerSecond: try fields["maximumCharactersPerSecond"]?.double(),
                maximumWordsPerMinute: try fields["maximumWordsPerMinute"]?.double(), severity: try fields.severity())
        }
        if let fields = try rules["lineLength"]?.object() {
            lineLength = LineLength(maximumCharacters: try fields["maximumCharacters"]?.integer(), severity: try fields.severity())
        }
        if let fields = try rules["lineCount"]?.object() {
            lineCount = LineCount(maximum: try fields["maximum"]?.integer(), severity: try fields.severity())
        }
        if let fields = try rules["minimumDuration"]?.object() {
            minimumDuration = Duration(milliseconds: try fields["milliseconds"]?.integer(), severity: try fields.severity())
        }
        if let fields = try rules["maximumDuration"]?.object() {
            maximumDuration = Duration(milliseconds: try fields["milliseconds"]?.integer(), severity: try fields.severity())
        }
        if let fields = try rules["gap"]?.object() {
            gap = Gap(minimumFrames: try fields["minimumFrames"]?.integer(), severity: try fields.severity())
        }
        if let fields = try rules["overlap"]?.object() {
            overlap = Overlap(severity: try fields.severity())
        }
        if let fields = try rules["characters"]?.object() {
            let allowed = try fields["allowed"].map { value throws(BuiltInProfileReader.Unexpected) in
                guard let set = QCCharacterSet(rawValue: try value.string()) else { throw BuiltInProfileReader.Unexpected() }
                return set
            }
            characters = Characters(allowed: allowed, severity: try fields.severity())
        }
        if let fields = try rules["markup"]?.object() {
            let tags = try fields["allowedTags"].map { value throws(BuiltInProfileReader.Unexpected) in
                var tags: [String] = []
                for tag in try value.array() { tags.append(try tag.string()) }
                return tags
            }
            markup = Markup(allowedTags: tags, severity: try fields.severity())
        }
        if let fields = try rules["lineBalance"]?.object() {
            lineBalance = LineBalance(
                maximumTopToBottomRatio: try fields["maximumTopToBottomRatio"]?.double(), severity: try fields.severity())
        }
        if let fields = try rules["shotChanges"]?.object() {
            shotChanges = ShotChanges(
                windowFrames: try fields["windowFrames"]?.integer(), windowMilliseconds: try fields["windowMilliseconds"]?.integer(),
                severity: try fields.severity())
        }
    }
}

extension [String: BuiltInProfileReader.Value] {
    /// The value of `key`, which must be there.
    fileprivate func required(_ key: String) throws(BuiltInProfileReader.Unexpected) -> BuiltInProfileReader.Value {
        guard let value = self[key] else { throw BuiltInProfileReader.Unexpected() }
        return value
    }

    /// The rule's `severity`, if it names one.
    fileprivate func severity() throws(BuiltInProfileReader.Unexpected) -> Diagnostic.Severity? {
        guard let value = self["severity"] else { return nil }
        guard let severity = Diagnostic.Severity(rawValue: try value.string()) else { throw BuiltInProfileReader.Unexpected() }
        return severity
    }
}

/// Reads the JSON of a built-in profile into plain values: objects, arrays, strings without
/// escapes, numbers and `null` (which reads as a missing key, as `Codable` reads it). Anything
/// else is ``Unexpected``.
struct BuiltInProfileReader {
    /// Something the reader does not read: the profile is then decoded by `JSONDecoder`.
    struct Unexpected: Error {}

    /// A JSON value; a number keeps its text, read as an integer or a double where it is used.
    enum Value {
        case object([String: Value])
        case array([Value])
        case string(String)
        case number(String)

        func object() throws(Unexpected) -> [String: Value] {
            guard case .object(let fields) = self else { throw Unexpected() }
            return fields
        }

        func array() throws(Unexpected) -> [Value] {
            guard case .array(let values) = self else { throw Unexpected() }
            return values
        }

        func string() throws(Unexpected) -> String {
            guard case .string(let text) = self else { throw Unexpected() }
            return text
        }

        /// A number written as an integer: digits, with a leading minus sign or not.
        func integer() throws(Unexpected) -> Int {
            guard case .number(let text) = self, let value = Int(text) else { throw Unexpected() }
            return value
        }

        func double() throws(Unexpected) -> Double {
            guard case .number(let text) = self, let value = Double(text) else { throw Unexpected() }
            return value
        }
    }

    private let bytes: [UInt8]
    private var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The document's one value, with nothing but white space after it.
    mutating func document() throws(Unexpected) -> Value {
        guard let value = try value() else { throw Unexpected() }
        skipWhiteSpace()
        guard index == bytes.count else { throw Unexpected() }
        return value
    }

    /// The next value; nil for `null`.
    private mutating func value() throws(Unexpected) -> Value? {
        skipWhiteSpace()
        guard index < bytes.count else { throw Unexpected() }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var fields: [String: Value] = [:]
            skipWhiteSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(fields)
            }
            while true {
                skipWhiteSpace()
                let key = try string()
                skipWhiteSpace()
                try expect(UInt8(ascii: ":"))
                let value = try value()
                // A key given twice is left to JSONDecoder.
                if fields[key] != nil { throw Unexpected() }
                if let value { fields[key] = value }
                skipWhiteSpace()
                guard index < bytes.count else { throw Unexpected() }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "}") { return .object(fields) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw Unexpected() }
            }
        case UInt8(ascii: "["):
            index += 1
            var values: [Value] = []
            skipWhiteSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(values)
            }
            while true {
                guard let value = try value() else { throw Unexpected() }
                values.append(value)
                skipWhiteSpace()
                guard index < bytes.count else { throw Unexpected() }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "]") { return .array(values) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw Unexpected() }
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "n"):
            for byte in "null".utf8 { try expect(byte) }
            return nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        default:
            throw Unexpected()
        }
    }

    /// A string without escapes.
    private mutating func string() throws(Unexpected) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\") || bytes[index] < 0x20 { throw Unexpected() }
            index += 1
        }
        try expect(UInt8(ascii: "\""))
        return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
    }

    private mutating func expect(_ byte: UInt8) throws(Unexpected) {
        guard index < bytes.count, bytes[index] == byte else { throw Unexpected() }
        index += 1
    }

    private mutating func skipWhiteSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }
}
