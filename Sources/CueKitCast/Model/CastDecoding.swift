import CueKit

/// A Cast JSON value could not be read as the type asked for: every problem found, each naming its
/// field by JSON path.
///
/// Decoding does not stop at the first problem: a person fixing a message wants the whole list.
public struct CastDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every diagnostic found, errors and warnings, in document order. At least one is an error.
    public var diagnostics: [Diagnostic]

    /// Creates an error from diagnostics.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// The errors, one per line, as compilers print them.
    public var description: String {
        diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "\n")
    }
}

/// A Cast enumeration: its raw values are the strings Cast sends on the wire.
public protocol CastEnumeration: RawRepresentable<String>, CaseIterable, Sendable, Hashable, Codable {
    /// The type's name in the Cast reference, for messages (`TextTrackEdgeType`).
    static var castName: String { get }
}

extension CastEnumeration {
    /// Every raw value, comma-separated, for messages.
    static var valueList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Types read from Cast JSON by CueKit's own decoder, which reports every problem with its path.
protocol CastDecodable {
    /// Reads a value, reporting problems to `decoder`; `nil` when the value is unusable (not an
    /// object, or a required member is missing or invalid).
    static func decode(_ json: CastJSONValue, at path: CastJSONPath, with decoder: inout CastDecoder) -> Self?
}

extension CastDecodable {
    /// Decodes strictly: throws when any error is found.
    static func decodeStrictly(_ json: CastJSONValue, at path: CastJSONPath = .root, locations: CastJSONLocations) throws(CastDecodingError) -> Self {
        var decoder = CastDecoder(locations: locations)
        let value = decode(json, at: path, with: &decoder)
        guard let value, !decoder.diagnostics.contains(where: { $0.severity == .error }) else {
            throw CastDecodingError(diagnostics: decoder.diagnostics)
        }
        return value
    }
}

/// Reads members of Cast JSON objects, turning each problem into a diagnostic that names the
/// member's path and points at its line and column when the document was parsed by CueKit.
///
/// `null` in an optional member reads as absent: the JavaScript sender SDK sets unset fields to
/// `null`, and receivers treat both alike.
struct CastDecoder {
    let locations: CastJSONLocations
    private(set) var diagnostics: [Diagnostic] = []

    init(locations: CastJSONLocations) {
        self.locations = locations
    }

    mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, at path: CastJSONPath, _ message: String) {
        diagnostics.append(Diagnostic(severity, code, at: locations.nearest(path), "\(path): \(message)"))
    }

    /// The value as an object, or an error.
    mutating func object(_ json: CastJSONValue, at path: CastJSONPath, of what: String) -> CastJSONObject? {
        guard case .object(let object) = json else {
            report(.error, .castWrongType, at: path, "expected \(what) (an object), found \(json.typeDescription)")
            return nil
        }
        return object
    }

    /// The member, unless absent or `null`.
    func member(_ object: CastJSONObject, _ key: String) -> CastJSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    mutating func string(_ object: CastJSONObject, _ key: String, at path: CastJSONPath) -> String? {
        guard let value = member(object, key) else { return nil }
        guard case .string(let string) = value else {
            report(.error, .castWrongType, at: path.appending(key), "expected a string, found \(value.typeDescription)")
            return nil
        }
        return string
    }

    mutating func number(_ object: CastJSONObject, _ key: String, at path: CastJSONPath) -> Double? {
        guard let value = member(object, key) else { return nil }
        guard case .number(let number) = value else {
            report(.error, .castWrongType, at: path.appending(key), "expected a number, found \(value.typeDescription)")
            return nil
        }
        return number
    }

    mutating func bool(_ object: CastJSONObject, _ key: String, at path: CastJSONPath) -> Bool? {
        guard let value = member(object, key) else { return nil }
        guard case .bool(let bool) = value else {
            report(.error, .castWrongType, at: path.appending(key), "expected true or false, found \(value.typeDescription)")
            return nil
        }
        return bool
    }

    /// A whole number (track identifiers, request identifiers), as JavaScript numbers carry them.
    mutating func integer(_ value: CastJSONValue, at path: CastJSONPath, of what: String) -> Int? {
        guard case .number(let number) = value else {
            report(.error, .castWrongType, at: path, "expected \(what) (a whole number), found \(value.typeDescription)")
            return nil
        }
        guard number == number.rounded(), abs(number) <= 9_007_199_254_740_991 else {
            report(.error, .castWrongType, at: path, "\(what) must be a whole number, found \(CastJSONValue.format(number))")
            return nil
        }
        return Int(number)
    }

    mutating func enumeration<Value: CastEnumeration>(_ object: CastJSONObject, _ key: String, at path: CastJSONPath, as type: Value.Type) -> Value?
    {
        guard let string = string(object, key, at: path) else { return nil }
        guard let value = Value(rawValue: string) else {
            let hint = Value(rawValue: string.uppercased()).map { " (Cast values are upper case: \($0.rawValue))" } ?? ""
            report(
                .error, .castUnknownValue, at: path.appending(key),
                "'\(string)' is not a \(Value.castName); expected one of \(Value.valueList)\(hint)"
            )
            return nil
        }
        return value
    }

    mutating func color(_ object: CastJSONObject, _ key: String, at path: CastJSONPath) -> CastColor? {
        guard let string = string(object, key, at: path) else { return nil }
        do {
            return try CastColor(parsing: string)
        } catch {
            report(.error, .castBadColor, at: path.appending(key), error.message)
            return nil
        }
    }

    /// Any JSON value (custom data): present unless absent; `null` is kept as `null`.
    func any(_ object: CastJSONObject, _ key: String) -> CastJSONValue? {
        object[key]
    }

    /// The members outside `known`, kept in order, each reported as a note: most are fields of
    /// newer SDKs, some are misspellings.
    mutating func otherFields(_ object: CastJSONObject, known: Set<String>, at path: CastJSONPath, in what: String) -> CastJSONObject {
        var others = CastJSONObject()
        for (key, value) in object where !known.contains(key) {
            others[key] = value
            report(.note, .castUnknownField, at: path.appending(key), "'\(key)' is not a \(what) field CueKit checks; it is kept as it is")
        }
        return others
    }
}
