import CueKit

/// The WebVTT classes of a document: one per distinct set of CSS declarations, named after the
/// TTML style or region they come from when there is one (`.s1`, `.bottom`), `tN` otherwise, and
/// the STYLE block that defines them.
///
/// A class's name never depends on where in the file it is first used, so the two passes of a
/// two-pass read name every class the same way.
struct TTMLClassRegistry: Sendable {
    /// A registered class.
    struct Entry: Sendable {
        var name: String
        var presentation: TTMLPresentation
        /// Its place in the style sheet; later rules win over earlier ones.
        var order: Int
    }

    /// One entry a class of the STYLE block: the registry grows with the output it describes (it
    /// is no cache; the tables that only save work are ``TTMLStyleCatalog``'s, and bounded).
    private(set) var entries: [Entry] = []
    private var byDeclarations: [[TTMLPresentation.Declaration]: Int] = [:]
    private var usedNames: Set<String> = []
    private var nextGeneratedNumber = 1
    /// Entries registered after the style sheet was handed out.
    private(set) var lateEntries: [Entry] = []
    private var sealed = false

    /// The class for `presentation`'s declarations, registering one named after `preferredName`
    /// (or `tN`) if none exists. Nil when there is nothing to declare.
    mutating func className(for presentation: TTMLPresentation, preferredName: String? = nil) -> String? {
        guard presentation.hasDeclarations else { return nil }
        if let index = byDeclarations[presentation.declarations] { return entries[index].name }
        let name = uniqueName(preferredName.map(Self.sanitized) ?? generatedName())
        var bare = TTMLPresentation()
        bare.declarations = presentation.declarations
        let entry = Entry(name: name, presentation: bare, order: entries.count)
        byDeclarations[presentation.declarations] = entries.count
        entries.append(entry)
        if sealed { lateEntries.append(entry) }
        return name
    }

    /// Marks the style sheet as handed out: classes registered from now on are late.
    mutating func seal() { sealed = true }

    /// True once the style sheet is handed out.
    var isSealed: Bool { sealed }

    /// The rules for `entries`: `::cue(.name) { declarations }`.
    static func rules(_ entries: [Entry]) -> [CueStyleRule] {
        entries.map { $0.presentation.rule(.classes([$0.name])) }
    }

    private mutating func generatedName() -> String {
        while true {
            let name = "t\(nextGeneratedNumber)"
            nextGeneratedNumber += 1
            if !usedNames.contains(name) { return name }
        }
    }

    private mutating func uniqueName(_ base: String) -> String {
        var name = base
        var suffix = 2
        while usedNames.contains(name) {
            name = "\(base)-\(suffix)"
            suffix += 1
        }
        usedNames.insert(name)
        return name
    }

    /// A TTML identifier as a CSS class name that WebVTT cue text can carry: letters, digits, `-`,
    /// `_` and non-ASCII characters kept, anything else `_`; an initial digit or hyphen gets a `_`
    /// before it.
    static func sanitized(_ identifier: String) -> String {
        var result = ""
        for scalar in identifier.unicodeScalars {
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F: result.unicodeScalars.append(scalar)
            case 0x80...: result.unicodeScalars.append(scalar)
            default: result += "_"
            }
        }
        if let first = result.unicodeScalars.first, (0x30...0x39).contains(first.value) || first == "-" {
            result = "_" + result
        }
        return result.isEmpty ? "_" : result
    }
}
