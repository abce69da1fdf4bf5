/// The elements the reader tells apart, by namespace and local name (TTML2 sections 8.1, 10.1,
/// 11.1, 7.1, 9.1, 12.1).
enum TTMLElementKind: Sendable, Hashable {
    case tt, head, body, div, p, span, br
    case styling, style, initial, layout, region, metadata
    /// `set` (TTML2 section 13.1.2): a discrete style change over time.
    case set
    /// `animate`: a continuous style change (TTML2), not mapped.
    case animate
    /// `ttp:profile`, `ttp:features`, `ttp:extensions` and their children.
    case profile
    /// `image` (TTML2), `smpte:image`: image content.
    case image
    /// Other embedded content (`audio`, `font`, `data`, `resources`, `chunk`, `source`): skipped.
    case resource
    /// A name in a TTML namespace that TTML does not define: skipped with a warning.
    case unknownTTML
    /// Metadata vocabulary (`ttm:`), SMPTE-TT and EBU-TT metadata: skipped silently.
    case metadataItem
    /// Another namespace: skipped silently (TTML2 section 5.3.4, foreign vocabulary).
    case foreign

    /// The kind of an element.
    init(_ name: XMLName) {
        switch TTMLNamespace(name.namespace) {
        case .content:
            switch name.local {
            case "tt": self = .tt
            case "head": self = .head
            case "body": self = .body
            case "div": self = .div
            case "p": self = .p
            case "span": self = .span
            case "br": self = .br
            case "styling": self = .styling
            case "style": self = .style
            case "initial": self = .initial
            case "layout": self = .layout
            case "region": self = .region
            case "metadata": self = .metadata
            case "set": self = .set
            case "animate", "animation": self = .animate
            case "image": self = .image
            case "audio", "font", "data", "resources", "chunk", "source": self = .resource
            default: self = .unknownTTML
            }
        case .parameter:
            self = .profile
        case .metadata:
            self = .metadataItem
        case .smpte:
            self = name.local == "image" ? .image : .metadataItem
        default:
            self = .foreign
        }
    }

    /// A content element with timing (TTML2 section 12.2).
    var isTimedContent: Bool {
        switch self {
        case .body, .div, .p, .span, .br: true
        default: false
        }
    }
}

/// The attributes the reader acts on, by namespace and local name.
enum TTMLAttributeKind: Sendable, Hashable {
    /// `xml:id`, or a DFXP-era unqualified `id`.
    case identifier(legacy: Bool)
    case style, region, begin, end, dur, timeContainer
    case space, lang
    /// `ttm:agent`: the agents a span's text is spoken by.
    case agent
    /// A style property (`tts:`, `ebutts:`, `itts:`).
    case styleProperty(TTMLStyleProperty)
    /// A `ttp:` parameter, by local name.
    case parameter(String)
    /// `smpte:backgroundImage` and its relatives: image content.
    case backgroundImage
    /// An attribute in the styling namespace that TTML does not define.
    case unknownStyling(String)
    /// Anything else (metadata, foreign attributes): ignored.
    case ignored

    init(_ name: XMLName) {
        switch TTMLNamespace(name.namespace) {
        case .none:
            switch name.local {
            case "id": self = .identifier(legacy: true)
            case "style": self = .style
            case "region": self = .region
            case "begin": self = .begin
            case "end": self = .end
            case "dur": self = .dur
            case "timeContainer": self = .timeContainer
            default: self = .ignored
            }
        case .xml:
            switch name.local {
            case "id": self = .identifier(legacy: false)
            case "space": self = .space
            case "lang": self = .lang
            default: self = .ignored
            }
        case .styling:
            if let property = TTMLStyleProperty.byStylingName[name.local] {
                self = .styleProperty(property)
            } else {
                self = .unknownStyling(name.local)
            }
        case .ebuStyling:
            switch name.local {
            case "multiRowAlign": self = .styleProperty(.multiRowAlign)
            case "linePadding": self = .styleProperty(.linePadding)
            default: self = .ignored
            }
        case .imscStyling:
            switch name.local {
            case "fillLineGap": self = .styleProperty(.fillLineGap)
            case "forcedDisplay": self = .styleProperty(.forcedDisplay)
            default: self = .ignored
            }
        case .parameter:
            self = .parameter(name.local)
        case .smpte:
            self = name.local == "backgroundImage" || name.local.hasPrefix("backgroundImage") ? .backgroundImage : .ignored
        case .metadata:
            self = name.local == "agent" ? .agent : .ignored
        default:
            self = .ignored
        }
    }
}

/// Classifies names once per distinct name of a parse, by the numbers the XML parser gives them:
/// a table indexed by namespace number, then local-name number, for the first
/// ``tableLimit`` numbers (the names of any real document); a hashed table past them, so that a
/// document with thousands of invented names cannot make the table grow as their square. The
/// hashed tables keep at most ``otherCapacity`` names each, then start over (a name is classified
/// again the same way).
struct TTMLVocabularyCache {
    static let tableLimit = 512
    static let otherCapacity = 4096
    private var elements: [[TTMLElementKind?]] = []
    private var attributes: [[TTMLAttributeKind?]] = []
    private var otherElements: [Int: TTMLElementKind] = [:]
    private var otherAttributes: [Int: TTMLAttributeKind] = [:]
    /// Attribute values that repeat, shared from element to element (read with the names, by
    /// ``TTMLElementAttributes``).
    var values = TTMLAttributeValueCache()

    mutating func element(_ name: XMLName) -> TTMLElementKind {
        guard name.namespaceIndex < Self.tableLimit, name.localIndex < Self.tableLimit else {
            return Self.other(name, in: &otherElements, TTMLElementKind.init)
        }
        if let known = Self.lookup(elements, name) { return known }
        let kind = TTMLElementKind(name)
        Self.store(kind, in: &elements, name)
        return kind
    }

    mutating func attribute(_ name: XMLName) -> TTMLAttributeKind {
        guard name.namespaceIndex < Self.tableLimit, name.localIndex < Self.tableLimit else {
            return Self.other(name, in: &otherAttributes, TTMLAttributeKind.init)
        }
        if let known = Self.lookup(attributes, name) { return known }
        let kind = TTMLAttributeKind(name)
        Self.store(kind, in: &attributes, name)
        return kind
    }

    /// The kind of a name past ``tableLimit``, from the hashed `table` (which starts over at
    /// ``otherCapacity``). Out of line: the common path stays small enough to be inlined.
    @inline(never)
    private static func other<Kind>(_ name: XMLName, in table: inout [Int: Kind], _ classify: (XMLName) -> Kind) -> Kind {
        let key = name.namespaceIndex << 32 | name.localIndex
        if let known = table[key] { return known }
        let kind = classify(name)
        if table.count >= otherCapacity { table.removeAll(keepingCapacity: true) }
        table[key] = kind
        return kind
    }

    private static func lookup<Kind>(_ table: [[Kind?]], _ name: XMLName) -> Kind? {
        guard name.namespaceIndex < table.count else { return nil }
        let row = table[name.namespaceIndex]
        guard name.localIndex < row.count else { return nil }
        return row[name.localIndex]
    }

    private static func store<Kind>(_ kind: Kind, in table: inout [[Kind?]], _ name: XMLName) {
        while table.count <= name.namespaceIndex { table.append([]) }
        if table[name.namespaceIndex].count <= name.localIndex {
            table[name.namespaceIndex] += Array(repeating: nil, count: name.localIndex + 1 - table[name.namespaceIndex].count)
        }
        table[name.namespaceIndex][name.localIndex] = kind
    }
}
