/// Any JSON value: what Cast carries in `customData`, `metadata` and fields CueKit does not model.
///
/// Cast messages are parsed by JavaScript on the receiver, so numbers are IEEE doubles here too:
/// whatever a receiver can see, this type holds exactly (RFC 8259, section 6, on interoperable
/// numbers). Objects keep their keys in document order (see ``JSONObject``).
public enum CastJSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as the double a JavaScript receiver reads.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([CastJSONValue])
    /// An object, keys in document order.
    case object(CastJSONObject)

    /// The name of the value's JSON type, for messages: `"a string"`, `"an object"`...
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is one.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The object, if this is one.
    public var objectValue: CastJSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The array, if this is one.
    public var arrayValue: [CastJSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}

extension CastJSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A whole number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: CastJSONValue...) { self = .array(elements) }
    /// An object, keys in the literal's order.
    public init(dictionaryLiteral elements: (String, CastJSONValue)...) {
        var object = CastJSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

/// A JSON object that keeps its keys in the order they were first written.
///
/// Order matters to people reading `customData` and to byte-for-byte comparisons of written
/// messages, but not to JSON's meaning: two objects are equal when they hold the same keys with
/// equal values, in any order. As in JavaScript's `JSON.parse`, setting a key that is already
/// present keeps its place and replaces its value.
public struct CastJSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The keys, in order.
    public private(set) var keys: [String] = []
    private var values: [String: CastJSONValue] = [:]

    /// An empty object.
    public init() {}

    /// An object with the literal's keys, in its order.
    public init(dictionaryLiteral elements: (String, CastJSONValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// The value for `key`; setting `nil` removes the key.
    public subscript(key: String) -> CastJSONValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// The number of keys.
    public var count: Int { keys.count }

    /// True when the object has no keys.
    public var isEmpty: Bool { keys.isEmpty }

    /// The key-value pairs, in order.
    public func makeIterator() -> AnyIterator<(key: String, value: CastJSONValue)> {
        var index = keys.startIndex
        return AnyIterator { [keys, values] in
            guard index < keys.endIndex else { return nil }
            defer { index += 1 }
            let key = keys[index]
            return (key, values[key]!)
        }
    }

    /// Equal when both hold the same keys with equal values, whatever their order.
    public static func == (lhs: CastJSONObject, rhs: CastJSONObject) -> Bool { lhs.values == rhs.values }

    /// Hashes the keys and values, not their order (consistent with `==`).
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}
