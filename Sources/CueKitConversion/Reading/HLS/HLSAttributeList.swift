/// An attribute list (RFC 8216, section 4.2): `NAME=value` pairs separated by commas, where a
/// quoted string may hold commas. Values are kept as written, so that a rewritten list changes
/// only what was set.
package struct HLSAttributeList {
    package private(set) var pairs: [(name: String, value: String?)] = []

    package init(_ text: Substring) {
        var rest = text[...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else {
                pairs.append((String(rest), nil))
                break
            }
            let name = String(rest[..<equals])
            var index = rest.index(after: equals)
            var inQuotes = false
            while index < rest.endIndex {
                let character = rest[index]
                if character == "\"" { inQuotes.toggle() }
                if character == ",", !inQuotes { break }
                index = rest.index(after: index)
            }
            pairs.append((name, String(rest[rest.index(after: equals)..<index])))
            rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
        }
    }

    /// The value as written (quotes included).
    package subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// A quoted-string value without its quotes.
    package func string(_ name: String) -> String? {
        guard let value = self[name] else { return nil }
        return value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? String(value.dropFirst().dropLast()) : value
    }

    /// Sets `name` (in place when present, else last).
    package mutating func set(_ name: String, to value: String) {
        if let index = pairs.firstIndex(where: { $0.name == name }) {
            pairs[index].value = value
        } else {
            pairs.append((name, value))
        }
    }

    /// The list as text.
    package var text: String { pairs.map { pair in pair.value.map { "\(pair.name)=\($0)" } ?? pair.name }.joined(separator: ",") }
}
