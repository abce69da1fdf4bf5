import CueKit

/// A `style` element of the head (TTML2 section 10.1.2), as written.
struct TTMLStyleDefinition: Sendable {
    var identifier: String
    var references: [String]
    var styles: TTMLStyleSet
    var location: SourceLocation
}

/// A `region` element (TTML2 section 11.1.2), as written.
struct TTMLRegionDefinition: Sendable {
    var identifier: String
    var references: [String]
    /// Nested `style` children, each with its own references (TTML1 section 8.4.1.4, nested styling).
    var nested: [TTMLStyleDefinition] = []
    var styles: TTMLStyleSet
    var attributes: TTMLElementAttributes
    var location: SourceLocation
}

/// Resolves referential and chained styles (TTML2 sections 10.4.1.2 and 10.4.1.3): a style's
/// specified set is the sets of the styles it refers to, in order, overridden by its own
/// attributes. Each style is resolved once; cycles are cut and reported.
struct TTMLStyleResolver: Sendable {
    private(set) var definitions: [String: TTMLStyleDefinition] = [:]
    /// Style identifiers in document order.
    private(set) var order: [String] = []
    private var resolved: [String: TTMLStyleSet] = [:]

    /// A problem found resolving.
    struct Issue: Sendable {
        var code: DiagnosticCode
        var location: SourceLocation
        var message: String
    }

    /// Adds a definition; false when its identifier is taken (the first definition stays).
    mutating func define(_ definition: TTMLStyleDefinition) -> Bool {
        guard definitions[definition.identifier] == nil else { return false }
        definitions[definition.identifier] = definition
        order.append(definition.identifier)
        return true
    }

    func isDefined(_ identifier: String) -> Bool { definitions[identifier] != nil }

    /// The resolved set of a style, or nil when no style has that identifier.
    mutating func resolve(_ identifier: String, issues: inout [Issue]) -> TTMLStyleSet? {
        var visiting: [String] = []
        return resolve(identifier, visiting: &visiting, issues: &issues)
    }

    /// The set of `references` in order, overridden by `own`: what an element or a region that
    /// refers to styles specifies.
    mutating func resolve(references: [String], own: TTMLStyleSet, location: SourceLocation, issues: inout [Issue]) -> TTMLStyleSet {
        var result = TTMLStyleSet()
        for reference in references {
            if let set = resolve(reference, issues: &issues) {
                result = result.overridden(by: set)
            }
        }
        return result.overridden(by: own)
    }

    private mutating func resolve(_ identifier: String, visiting: inout [String], issues: inout [Issue]) -> TTMLStyleSet? {
        if let known = resolved[identifier] { return known }
        guard let definition = definitions[identifier] else { return nil }
        if visiting.contains(identifier) || visiting.count > 64 {
            issues.append(
                Issue(
                    code: .ttmlStyleCycle, location: definition.location,
                    message: "style \(quoted(identifier)) refers back to itself through \(visiting.map(quoted).joined(separator: " -> ")); the reference that closes the cycle is ignored"
                ))
            return nil
        }
        visiting.append(identifier)
        var result = TTMLStyleSet()
        for reference in definition.references {
            if let set = resolve(reference, visiting: &visiting, issues: &issues) {
                result = result.overridden(by: set)
            } else if definitions[reference] == nil {
                issues.append(
                    Issue(
                        code: .ttmlUnknownStyle, location: definition.location,
                        message: "style \(quoted(identifier)) refers to style \(quoted(reference)), which is not defined; the reference is ignored"))
            }
        }
        visiting.removeLast()
        result = result.overridden(by: definition.styles)
        resolved[identifier] = result
        return result
    }
}

/// `"text"` for messages.
func quoted(_ text: String) -> String { "'" + text + "'" }
