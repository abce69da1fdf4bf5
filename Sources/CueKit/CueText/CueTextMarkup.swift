/// WebVTT cue text (WebVTT sections 4.2.2 and 6.4): the markup a cue's content is stored in.
///
/// `CueText.markup(for:)` turns a ``CueNode`` tree into markup that the WebVTT cue text parser turns
/// back into the same tree, and that is safe inside a cue block: no blank line, no `-->`, nothing
/// that ends the block or the tag early.
public enum CueText {
    /// Something in a tree that WebVTT cue text cannot carry, and what the markup does instead.
    public struct MarkupIssue: Sendable, Hashable, CustomStringConvertible {
        /// What was changed, in words.
        public var description: String
    }

    /// The markup for a tree. Anything the markup cannot carry is adjusted; use
    /// ``markup(for:issues:)`` to learn what.
    public static func markup(for nodes: [CueNode]) -> String {
        var issues: [MarkupIssue] = []
        return markup(for: nodes, issues: &issues)
    }

    /// The markup for a tree, appending to `issues` each thing that could not be written as it is:
    /// a class name holding characters a class cannot contain, a blank line (which would end the
    /// cue), a carriage return, a line break in an annotation.
    public static func markup(for nodes: [CueNode], issues: inout [MarkupIssue]) -> String {
        var writer = MarkupWriter(issues: issues)
        writer.write(nodes)
        var bytes = writer.builder.take()
        writer.normalizeLineBreaks(&bytes)
        issues = writer.issues
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Walks a tree through ``CueTextMarkupBuilder``, noting what the markup cannot carry as it is.
private struct MarkupWriter {
    var issues: [CueText.MarkupIssue]
    var builder = CueTextMarkupBuilder()

    mutating func write(_ nodes: [CueNode], insideRuby: Bool = false, depth: Int = 0) {
        for node in nodes {
            switch node {
            case .text(let text):
                builder.text(text)
            case .timestamp(let milliseconds):
                if milliseconds < 0 {
                    issues.append(.init(description: "a timestamp before the start of the media (\(milliseconds) ms) was written as 00:00:00.000"))
                }
                builder.timestamp(milliseconds)
            case .span(let span) where span.kind == .rubyText && !insideRuby:
                // A reader ignores <rt> anywhere but directly inside <ruby>: write the content alone.
                issues.append(.init(description: "ruby text outside a ruby span was written as ordinary text"))
                write(span.children, depth: depth)
            case .span(let span) where depth >= CueText.maximumNestingDepth:
                // A reader ignores tags nested deeper than it builds: write the content alone.
                issues.append(.init(description: "spans nested more than \(CueText.maximumNestingDepth) deep were written as their content"))
                write(span.children, depth: depth)
            case .span(let span):
                noteRepairs(span)
                builder.openTag(span.kind.tagName, classes: span.classes, annotation: span.kind.annotation)
                write(span.children, insideRuby: span.kind == .ruby, depth: depth + 1)
                builder.closeTag(span.kind.tagName)
            }
        }
    }

    /// What the builder will change in a start tag: classes and annotations it cannot write as they are.
    private mutating func noteRepairs(_ span: CueSpan) {
        for name in span.classes {
            if name.isEmpty {
                issues.append(.init(description: "an empty class name was left out"))
            } else if !name.utf8.allSatisfy(CueTextMarkupBuilder.isClassByte) {
                issues.append(.init(description: "class name \"\(name)\" holds characters a class cannot contain (white space, '.', '&', '<' or '>'); they were left out"))
            }
        }
        if let annotation = span.kind.annotation {
            let normalized = CueTextMarkupBuilder.normalizedAnnotation(annotation)
            if normalized != annotation {
                issues.append(.init(description: "annotation \"\(annotation)\" of <\(span.kind.tagName)> has white space that WebVTT collapses; it was written as \"\(normalized)\""))
            }
        }
    }

    /// A cue payload cannot hold an empty line (it ends the cue), nor start or end with a line
    /// break, nor hold a carriage return: line breaks become single `"\n"`s.
    mutating func normalizeLineBreaks(_ bytes: inout [UInt8]) {
        let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        guard bytes.contains(where: { $0 == lf || $0 == cr }) else { return }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var sawCarriageReturn = false, sawBlankLine = false
        var index = 0
        while index < bytes.count {
            var byte = bytes[index]
            if byte == cr {
                sawCarriageReturn = true
                byte = lf
                if index + 1 < bytes.count, bytes[index + 1] == lf { index += 1 }
            }
            if byte == lf, output.isEmpty || output.last == lf {
                sawBlankLine = true
            } else {
                output.append(byte)
            }
            index += 1
        }
        if output.last == lf {
            output.removeLast()
            sawBlankLine = true
        }
        if sawCarriageReturn {
            issues.append(.init(description: "carriage returns in cue text were written as line feeds"))
        }
        if sawBlankLine {
            issues.append(.init(description: "empty lines in cue text, which would end the cue, were left out"))
        }
        bytes = output
    }
}
