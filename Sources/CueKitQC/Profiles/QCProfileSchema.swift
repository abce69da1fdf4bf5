#if canImport(FoundationEssentials)
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

/// Any JSON value, for checking a profile's keys before it is decoded.
enum JSONValue: Decodable {
    case object([String: JSONValue])
    case array([JSONValue])
    case scalar

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let object = try? container.decode([String: JSONValue].self) {
            self = .object(object)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .scalar
        }
    }
}

/// The keys a profile may hold, taken from the types it decodes into (so that the check and the
/// types never disagree): Codable ignores unknown keys, and a profile must not.
enum QCProfileSchema {
    /// Throws at the first key no type knows.
    static func check(_ value: JSONValue) throws(QCProfileError) {
        guard case .object(let root) = value else { throw QCProfileError(path: "", "must be a JSON object") }
        try keys(root, allowed: profileKeys, path: "")
        if case .object(let rules)? = root["rules"] { try checkRules(rules, path: "rules") }
        if case .object(let rules)? = root["children"] { try checkRules(rules, path: "children") }
        if case .object(let languages)? = root["languages"] {
            for (tag, entry) in languages.sorted(by: { $0.key < $1.key }) {
                let path = "languages." + tag
                guard case .object(let language) = entry else { throw QCProfileError(path: path, "must be a JSON object") }
                try keys(language, allowed: ["rules", "children"], path: path)
                if case .object(let rules)? = language["rules"] { try checkRules(rules, path: path + ".rules") }
                if case .object(let rules)? = language["children"] { try checkRules(rules, path: path + ".children") }
            }
        }
    }

    private static func checkRules(_ rules: [String: JSONValue], path: String) throws(QCProfileError) {
        try keys(rules, allowed: Set(ruleFields.keys), path: path)
        for (name, rule) in rules.sorted(by: { $0.key < $1.key }) {
            guard case .object(let fields) = rule else { throw QCProfileError(path: path + "." + name, "must be a JSON object") }
            try keys(fields, allowed: ruleFields[name] ?? [], path: path + "." + name)
        }
    }

    private static func keys(_ object: [String: JSONValue], allowed: Set<String>, path: String) throws(QCProfileError) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            let known = allowed.sorted().joined(separator: ", ")
            throw QCProfileError(path: path.isEmpty ? key : path + "." + key, "unknown key (known here: \(known))")
        }
    }

    private static let profileKeys = labels(of: QCProfile(name: "", title: "", rules: QCRules()))

    /// Each rule's name and its fields, from an instance with every rule on.
    private static let ruleFields: [String: Set<String>] = {
        var rules = QCRules()
        rules.readingSpeed = .init()
        rules.lineLength = .init()
        rules.lineCount = .init()
        rules.minimumDuration = .init()
        rules.maximumDuration = .init()
        rules.gap = .init()
        rules.overlap = .init()
        rules.characters = .init()
        rules.markup = .init()
        rules.lineBalance = .init()
        rules.shotChanges = .init()
        var result: [String: Set<String>] = [:]
        for child in Mirror(reflecting: rules).children {
            guard let label = child.label else { continue }
            // The rule is an Optional: its one child is the value.
            let value = Mirror(reflecting: child.value).children.first?.value ?? child.value
            result[label] = labels(of: value)
        }
        return result
    }()

    private static func labels(of value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap(\.label))
    }
}

extension QCProfile {
    init(name: String, title: String, rules: QCRules) {
        self.name = name
        self.title = title
        self.rules = rules
    }
}
