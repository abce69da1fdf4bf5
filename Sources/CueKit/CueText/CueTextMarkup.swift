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
        var bytes: [UInt8] = []
        var writer = MarkupWriter(issues: issues)
        writer.write(nodes, to: &bytes)
        writer.normalizeLineBreaks(&bytes)
        issues = writer.issues
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Serialises cue nodes byte by byte.
private struct MarkupWriter {
    var issues: [CueText.MarkupIssue]

    mutating func write(_ nodes: [CueNode], insideRuby: Bool = false, depth: Int = 0, to bytes: inout [UInt8]) {
        for node in nodes {
            switch node {
            case .text(let text):
                appendEscapedText(text, to: &bytes)
            case .timestamp(let milliseconds):
                if milliseconds < 0 {
                    issues.append(.init(description: "a timestamp before the start of the media (\(milliseconds) ms) was written as 00:00:00.000"))
                }
                bytes.append(UInt8(ascii: "<"))
                Timestamp.append(milliseconds, hours: .always, to: &bytes)
                bytes.append(UInt8(ascii: ">"))
            case .span(let span) where span.kind == .rubyText && !insideRuby:
                // A reader ignores <rt> anywhere but directly inside <ruby>: write the content alone.
                issues.append(.init(description: "ruby text outside a ruby span was written as ordinary text"))
                write(span.children, depth: depth, to: &bytes)
            case .span(let span) where depth >= CueText.maximumNestingDepth:
                // A reader ignores tags nested deeper than it builds: write the content alone.
                issues.append(.init(description: "spans nested more than \(CueText.maximumNestingDepth) deep were written as their content"))
                write(span.children, depth: depth, to: &bytes)
            case .span(let span):
                writeStartTag(span, to: &bytes)
                write(span.children, insideRuby: span.kind == .ruby, depth: depth + 1, to: &bytes)
                bytes.append(UInt8(ascii: "<"))
                bytes.append(UInt8(ascii: "/"))
                bytes.append(contentsOf: span.kind.tagName.utf8)
                bytes.append(UInt8(ascii: ">"))
            }
        }
    }

    private mutating func writeStartTag(_ span: CueSpan, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: span.kind.tagName.utf8)
        for name in span.classes {
            if name.isEmpty {
                issues.append(.init(description: "an empty class name was left out"))
                continue
            }
            let kept = name.utf8.filter(Self.isClassByte)
            if kept.count != name.utf8.count {
                issues.append(.init(description: "class name \"\(name)\" holds characters a class cannot contain (white space, '.', '&', '<' or '>'); they were left out"))
            }
            if kept.isEmpty { continue }
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: kept)
        }
        if let annotation = span.kind.annotation {
            let normalized = Self.normalizedAnnotation(annotation)
            if normalized != annotation {
                issues.append(.init(description: "annotation \"\(annotation)\" of <\(span.kind.tagName)> has white space that WebVTT collapses; it was written as \"\(normalized)\""))
            }
            if !normalized.isEmpty {
                bytes.append(UInt8(ascii: " "))
                for byte in normalized.utf8 {
                    switch byte {
                    case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
                    case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
                    case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
                    default: bytes.append(byte)
                    }
                }
            }
        }
        // `<c.a-->` would hold `-->`, which ends a cue block: a space before `>` keeps the tag the same.
        if bytes.last == UInt8(ascii: "-") { bytes.append(UInt8(ascii: " ")) }
        bytes.append(UInt8(ascii: ">"))
    }

    private func appendEscapedText(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            default: bytes.append(byte)
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

    static func isClassByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20, UInt8(ascii: "."), UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            false
        default:
            true
        }
    }

    /// What the WebVTT tokenizer makes of an annotation: ASCII white space trimmed, runs of it
    /// collapsed to one space.
    static func normalizedAnnotation(_ annotation: String) -> String {
        var result: [UInt8] = []
        var pendingSpace = false
        for byte in annotation.utf8 {
            switch byte {
            case 0x09, 0x0A, 0x0C, 0x0D, 0x20:
                pendingSpace = !result.isEmpty
            default:
                if pendingSpace { result.append(0x20) }
                pendingSpace = false
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
