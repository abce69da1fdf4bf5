import CueKit

/// Where a value sits in a JSON document: `$.media.tracks[1].language`.
///
/// Diagnostics about Cast messages name the field they are about with its path (JSONPath notation,
/// RFC 9535), so that a person finds it in a 64 KB message without counting braces.
public struct CastJSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step down from a value.
    public enum Component: Sendable, Hashable {
        /// A member of an object.
        case key(String)
        /// An element of an array, from 0.
        case index(Int)
    }

    /// The steps from the root, in order.
    public var components: [Component]

    /// Creates a path from its steps.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// The document itself: `$`.
    public static let root = CastJSONPath()

    /// The path of a member of the object at this path.
    public func appending(_ key: String) -> CastJSONPath {
        CastJSONPath(components + [.key(key)])
    }

    /// The path of an element of the array at this path.
    public func appending(index: Int) -> CastJSONPath {
        CastJSONPath(components + [.index(index)])
    }

    /// `$`, then `.name` for members whose names are identifiers, `['name']` for others, and
    /// `[0]` for array elements.
    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.isIdentifier(key) {
                    text += "." + key
                } else {
                    var escaped = ""
                    for character in key.unicodeScalars {
                        switch character {
                        case "'": escaped += "\\'"
                        case "\\": escaped += "\\\\"
                        default: escaped.unicodeScalars.append(character)
                        }
                    }
                    text += "['" + escaped + "']"
                }
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !(("0"..."9").contains(first)) else { return false }
        return key.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
        }
    }
}

/// Where each value of a parsed JSON document starts, by path.
///
/// Kept beside the values (rather than inside them) so that ``JSONValue`` stays a plain value that
/// compares equal however it was written.
public struct CastJSONLocations: Sendable, Hashable {
    private var starts: [CastJSONPath: SourceLocation] = [:]

    /// No locations (values built in code).
    public init() {}

    /// The line and column where the value at `path` starts, if known.
    public subscript(path: CastJSONPath) -> SourceLocation? {
        get { starts[path] }
        set { starts[path] = newValue }
    }

    /// The location of `path`, or of its nearest ancestor that has one: a missing member is
    /// reported where its object starts.
    public func nearest(_ path: CastJSONPath) -> SourceLocation? {
        var components = path.components
        while true {
            if let location = starts[CastJSONPath(components)] { return location }
            if components.isEmpty { return nil }
            components.removeLast()
        }
    }
}

extension CastJSONValue {
    /// The value at `path` below this one, if there is one.
    public func value(at path: CastJSONPath) -> CastJSONValue? {
        var current = self
        for component in path.components {
            switch (component, current) {
            case (.key(let key), .object(let object)):
                guard let next = object[key] else { return nil }
                current = next
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
