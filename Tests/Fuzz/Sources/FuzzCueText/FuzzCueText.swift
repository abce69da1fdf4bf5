import CueKit

/// Parses the input as WebVTT cue text and traps when the tree does not survive a round trip.
///
/// `CueText.markup(for:)` promises markup that the cue text parser turns back into the same tree,
/// so parse(markup(parse(input))) must equal parse(input) when the markup reports no adjustment, and
/// markup must be stable: markup(parse(markup)) == markup. Trees are compared with adjacent text
/// nodes merged: the parsing algorithm makes a text node per token (`<b>a</ruby>b` gives two), a
/// boundary that no markup can carry. The byte and `String` entry points run too, so that any
/// crash in them is found, and the checker must report what the parser reports.
func fuzzCueText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let nodes = CueText.nodes(from: text)
    let fromBytes = CueText.nodes(fromUTF8: bytes)
    if Array(text.utf8).elementsEqual(bytes), nodes != fromBytes {
        fatalError("nodes(from:) and nodes(fromUTF8:) differ on valid UTF-8:\n\(nodes)\n\(fromBytes)")
    }
    var diagnostics: [Diagnostic] = []
    _ = CueText.nodes(from: text, context: .init(cueStart: 0, cueEnd: 10_000), diagnostics: &diagnostics)
    _ = CueText.diagnostics(forUTF8: bytes, context: .init(cueStart: 0, cueEnd: 10_000))
    // The checker (with its scans for plain text and common markup) finds what the parser finds.
    let checked = CueText.diagnostics(forUTF8: text.utf8, context: .init(cueStart: 0, cueEnd: 10_000))
    if checked != diagnostics {
        fatalError("the checker and the parser differ:\ninput: \(text.debugDescription)\n\(checked)\n\(diagnostics)")
    }

    // Markup changes only what it reports (a blank line, a class name with white space...).
    var issues: [CueText.MarkupIssue] = []
    let markup = CueText.markup(for: nodes, issues: &issues)
    let reread = CueText.nodes(from: markup)
    if issues.isEmpty, merged(reread) != merged(nodes) {
        fatalError("markup does not read back as the same tree:\ninput: \(text.debugDescription)\nmarkup: \(markup.debugDescription)\n\(nodes)\n\(reread)")
    }
    let again = CueText.markup(for: reread)
    if again != markup {
        fatalError("markup is not stable:\n\(markup.debugDescription)\n\(again.debugDescription)")
    }
    return 0
}

/// The tree with adjacent text nodes joined.
private func merged(_ nodes: [CueNode]) -> [CueNode] {
    var result: [CueNode] = []
    for node in nodes {
        switch node {
        case .text(let text):
            if case .text(let previous) = result.last {
                result[result.count - 1] = .text(previous + text)
            } else {
                result.append(node)
            }
        case .span(var span):
            span.children = merged(span.children)
            result.append(.span(span))
        case .timestamp:
            result.append(node)
        }
    }
    return result
}
