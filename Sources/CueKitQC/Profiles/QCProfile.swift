#if canImport(FoundationEssentials)
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

/// A style guide as data: general rules, rules for children's content, and rules per language,
/// read from JSON (see <doc:QCProfiles> for the schema). Unknown keys are an error, so that a
/// misspelt limit is never silently ignored.
public struct QCProfile: Sendable, Hashable, Codable {
    /// The name `--qc` selects it by: `netflix`.
    public var name: String
    /// The guide's title.
    public var title: String
    /// Where the guide is published.
    public var source: String?
    /// The rules for every language and audience.
    public var rules: QCRules
    /// What changes for children's content.
    public var children: QCRules?
    /// What changes per language, keyed by language tag in lower case (`en`, `fr`, `pt-br`).
    public var languages: [String: LanguageRules]?

    /// One language's rules, and its children's rules.
    public struct LanguageRules: Sendable, Hashable, Codable {
        public var rules: QCRules?
        public var children: QCRules?
    }

    /// Who the content is for.
    public enum Audience: String, Sendable, Hashable, CaseIterable {
        case adult
        case children
    }

    /// The rules for a track in `language` (a BCP 47 tag; `fr-CA` falls back to `fr`) for
    /// `audience`: general, then children's, then the language's, then the language's children's.
    public func rules(language: String?, audience: Audience = .adult) -> QCRules {
        var result = rules
        if audience == .children, let children { result = result.overlaid(with: children) }
        if let language = languageRules(for: language) {
            if let rules = language.rules { result = result.overlaid(with: rules) }
            if audience == .children, let children = language.children { result = result.overlaid(with: children) }
        }
        return result
    }

    /// The language entry for `tag`, by the whole tag then by shorter prefixes (`zh-hant-tw`,
    /// `zh-hant`, `zh`).
    public func languageRules(for tag: String?) -> LanguageRules? {
        guard let tag, let languages else { return nil }
        var parts = tag.lowercased().replacingUnderscores.split(separator: "-").map(String.init)
        while !parts.isEmpty {
            if let found = languages[parts.joined(separator: "-")] { return found }
            parts.removeLast()
        }
        return nil
    }

    /// Reads a profile from JSON, refusing unknown keys and checking that every rule is complete.
    public init(json bytes: [UInt8]) throws(QCProfileError) {
        try self.init(json: bytes, checkingKeys: true)
    }

    /// ``init(json:)``, its keys checked or not: the built-in profiles' keys are checked by their
    /// tests, not each time a command reads one (the check reads the JSON a second time and
    /// reflects on every rule, as much as the rest of a command's start).
    init(json bytes: [UInt8], checkingKeys: Bool) throws(QCProfileError) {
        let data = Data(bytes)
        if checkingKeys {
            let value: JSONValue
            do {
                value = try JSONDecoder().decode(JSONValue.self, from: data)
            } catch {
                throw QCProfileError(path: "", "is not valid JSON")
            }
            try QCProfileSchema.check(value)
        }
        do {
            self = try JSONDecoder().decode(QCProfile.self, from: data)
        } catch let error as DecodingError {
            throw QCProfileError(error)
        } catch {
            throw QCProfileError(path: "", "cannot be read: \(error)")
        }
        try checkEveryCombination()
    }

    /// Throws unless every language and audience make complete rules.
    private func checkEveryCombination() throws(QCProfileError) {
        for audience in Audience.allCases {
            for language in [nil] + (languages?.keys.sorted() ?? []) {
                do throws(QCProfileError) {
                    _ = try QCLimits(self.rules(language: language, audience: audience))
                } catch {
                    let prefix = (language.map { "languages.\($0)" } ?? "rules") + (audience == .children ? " (children)" : "")
                    throw QCProfileError(path: prefix + "." + error.path, error.reason)
                }
            }
        }
    }

    /// The built-in profiles' names: `netflix`, `bbc`, `dcmp`, `fcc-608`.
    public static let builtInNames = ["netflix", "bbc", "dcmp", "fcc-608"]

    /// A built-in profile by name (``builtInNames``).
    public static func builtIn(named name: String) throws(QCProfileError) -> QCProfile {
        guard let bytes = builtInJSON(named: name) else {
            throw QCProfileError(path: "", "no built-in profile is named '\(name)' (built in: \(builtInNames.joined(separator: ", ")))")
        }
        if let profile = QCProfile(builtInJSON: bytes) {
            try profile.checkEveryCombination()
            return profile
        }
        return try QCProfile(json: bytes, checkingKeys: false)
    }

    /// The JSON of the built-in profile `name`, if there is one.
    static func builtInJSON(named name: String) -> [UInt8]? {
        switch name.lowercased() {
        case "netflix": PackageResources.netflix_json
        case "bbc": PackageResources.bbc_json
        case "dcmp": PackageResources.dcmp_json
        case "fcc-608", "fcc608", "608": PackageResources.fcc_608_json
        default: nil
        }
    }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}

/// A profile that cannot be used: where in its JSON (`languages.fr.rules.lineLength`) and why.
public struct QCProfileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key path in the profile's JSON; empty for the document as a whole.
    public var path: String
    /// What is wrong there.
    public var reason: String

    public init(path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    init(_ error: DecodingError) {
        func dotted(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): self.init(path: dotted(context.codingPath + [key]), "is required")
        case .typeMismatch(let type, let context): self.init(path: dotted(context.codingPath), "must be \(Self.name(of: type))")
        case .valueNotFound(let type, let context): self.init(path: dotted(context.codingPath), "must be \(Self.name(of: type)), not null")
        case .dataCorrupted(let context): self.init(path: dotted(context.codingPath), context.debugDescription)
        @unknown default: self.init(path: "", "cannot be read")
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        default: "a JSON value of another type"
        }
    }

    /// `languages.fr.rules.lineLength: unknown key`, or the reason alone for the whole document.
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
