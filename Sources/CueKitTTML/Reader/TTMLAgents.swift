import CueKit

/// The agents a document's head declares (`ttm:agent` with a `ttm:name`, TTML2 section 12.1.6 and
/// 12.1.7), read from the head's `metadata` so that text a `ttm:agent` attribute attributes to one
/// becomes a WebVTT voice (`<v Name>`). Everything else in the metadata is skipped.
///
/// Bounded: at most ``maximumAgents`` agents, names of at most ``maximumNameBytes`` bytes.
struct TTMLAgents {
    static let maximumAgents = 10_000
    static let maximumNameBytes = 1024

    /// Agent names by `xml:id`; the first name of an agent, white space collapsed.
    private(set) var names: [String: String] = [:]
    /// Elements open inside the `metadata` element, itself included; 0 outside it.
    private var depth = 0
    private var agent: String?
    private var agentDepth = 0
    private var readingName = false
    private var name = ""

    /// True inside the head's `metadata`: its events come here.
    var isActive: Bool { depth > 0 }

    /// The head's `metadata` element starts.
    mutating func begin() { depth = 1 }

    mutating func start(_ element: XMLName, _ attributes: XMLAttributes) {
        depth += 1
        guard TTMLNamespace(element.namespace) == .metadata else { return }
        if element.local == "agent", agent == nil {
            agent = attributes.first { $0.name.local == "id" && TTMLNamespace($0.name.namespace) == .xml }?.value
            agentDepth = depth
        } else if element.local == "name", agent != nil, depth == agentDepth + 1 {
            readingName = true
            name = ""
        }
    }

    mutating func text(_ text: String) {
        if readingName, name.utf8.count < Self.maximumNameBytes { name += text }
    }

    mutating func end() {
        if readingName {
            readingName = false
            let collapsed = name.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
            if let agent, names[agent] == nil, names.count < Self.maximumAgents, !collapsed.isEmpty { names[agent] = collapsed }
        } else if agent != nil, depth == agentDepth {
            agent = nil
        }
        depth -= 1
    }

    /// The voice wrapper for an element's `ttm:agent`, when it names a declared agent.
    func voice(_ attributes: TTMLElementAttributes) -> TTMLParagraph.Wrapper? {
        guard let id = attributes.agent, let name = names[id] else { return nil }
        return TTMLParagraph.Wrapper(kind: .voice(name))
    }
}
