import CueKit

extension CastJSONValue {
    /// How JSON text is laid out.
    public enum Layout: Sendable, Hashable, CaseIterable {
        /// One member or element per line, indented by two spaces: for people and for diffs.
        case pretty
        /// No whitespace at all: what goes over the wire.
        case compact
    }

    /// The value as JSON text (RFC 8259), object keys in their order.
    ///
    /// Numbers and strings are written as CueKit's one JSON text form writes them: numbers as JavaScript's
    /// `JSON.stringify` does (`3`, not `3.0`; `null` for a number JSON cannot carry); strings with
    /// `"`, `\` and control characters escaped and everything else kept as UTF-8.
    public func serialized(_ layout: Layout = .pretty) -> String {
        var text = ""
        write(to: &text, layout: layout, indent: 0)
        return text
    }

    private func write(to text: inout String, layout: Layout, indent: Int) {
        switch self {
        case .null:
            text += "null"
        case .bool(let value):
            text += value ? "true" : "false"
        case .number(let value):
            text += Self.format(value)
        case .string(let value):
            Self.appendQuoted(value, to: &text)
        case .array(let elements):
            guard !elements.isEmpty else {
                text += "[]"
                return
            }
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                Self.newline(&text, layout: layout, indent: indent + 1)
                element.write(to: &text, layout: layout, indent: indent + 1)
            }
            Self.newline(&text, layout: layout, indent: indent)
            text += "]"
        case .object(let object):
            guard !object.isEmpty else {
                text += "{}"
                return
            }
            text += "{"
            var first = true
            for (key, value) in object {
                if !first { text += "," }
                first = false
                Self.newline(&text, layout: layout, indent: indent + 1)
                Self.appendQuoted(key, to: &text)
                text += layout == .pretty ? ": " : ":"
                value.write(to: &text, layout: layout, indent: indent + 1)
            }
            Self.newline(&text, layout: layout, indent: indent)
            text += "}"
        }
    }

    private static func newline(_ text: inout String, layout: Layout, indent: Int) {
        guard layout == .pretty else { return }
        text += "\n"
        text += String(repeating: "  ", count: indent)
    }

    /// A number as JSON, as `JSON.stringify` writes it (`JSONText.number`).
    static func format(_ value: Double) -> String {
        JSONText.number(value)
    }

    private static func appendQuoted(_ string: String, to text: inout String) {
        text += JSONText.quoted(string)
    }
}

extension CastJSONValue: Codable {
    /// Reads any JSON value from a decoder.
    ///
    /// Through a general-purpose decoder such as Foundation's `JSONDecoder`, whose keyed containers
    /// keep no order, object keys come out sorted by name; parse with ``JSONDocument`` to keep the
    /// document's order.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() {
                self = .null
                return
            }
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
                return
            }
            if let value = try? container.decode(Double.self) {
                self = .number(value)
                return
            }
            if let value = try? container.decode(String.self) {
                self = .string(value)
                return
            }
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [CastJSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(CastJSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        var object = CastJSONObject()
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            object[key.stringValue] = try container.decode(CastJSONValue.self, forKey: key)
        }
        self = .object(object)
    }

    /// Writes the value, object keys in order.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            if value == value.rounded(), abs(value) < 1e18 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in object { try container.encode(value, forKey: AnyCodingKey(key)) }
        }
    }
}

/// A coding key for any member name.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
