import CueKit

/// WebVTT's `<ruby>base<rt>text</rt>…</ruby>` as TTML2 ruby (section 10.2.35): a container span
/// for each base and its text, with `tts:ruby` on the spans themselves. TTML2 also lets a
/// referenced style carry `tts:ruby`, but readers such as ttconv take a span's ruby role only
/// from its own attributes.
///
/// A container is written in the paragraph itself, not inside the spans around the ruby (the
/// every-cue span of the WebVTT look, `<b>`, `<v>`…): those are closed before it and opened again
/// inside its base and its text, then after it, so that the text keeps its look. TTML2 allows a
/// container inside a span, but ttconv's model holds ruby only as a child of a paragraph, and
/// drops a span that holds one, with all its text. The styles of the ruby's and the `rt`'s
/// classes are spans inside those, as the `<ruby>` and `<rt>` are inside them in WebVTT, so that
/// they win over the look as they do there.
///
/// Where the profile has no ruby, the ruby is written `base(text)`, as ruby is shown without ruby
/// support, and reported.
extension TTMLDocumentBuilder {
    /// The tree path's ruby: each base and the `rt` after it become a container.
    mutating func appendRuby(_ span: CueSpan, context: inout TextContext) {
        let (chain, wasWritingRuby) = (writingRuby ? 0 : openTags.count, writingRuby)
        var hoisted = false
        var base: [CueNode] = []
        for child in span.children {
            guard case .span(let annotation) = child, annotation.kind == .rubyText else {
                base.append(child)
                continue
            }
            var styles = RubyStyles()
            if options.profile.hasRuby {
                styles.ruby = spanStyle(tag: 0, classes: span.classes)
                styles.text = spanStyle(tag: 0, classes: annotation.classes)
            }
            appendRubyPair(
                chain: chain, styles: styles, restoring: wasWritingRuby, hoisted: &hoisted, context: &context,
                base: { $0.appendNodes(base, context: &$1) }, text: { $0.appendNodes(annotation.children, context: &$1) })
            base = []
        }
        if hoisted { reopenTags(chain) }
        appendNodes(base, context: &context)
    }

    /// The events path's ruby: the events between a `ruby` span's start (`open`) and its end
    /// (`close`), written as ``appendRuby(_:context:)`` writes them.
    mutating func appendRuby(_ open: Int, close: Int, classes: Range<Int>, of text: EventText, context: inout TextContext) {
        let (chain, wasWritingRuby) = (writingRuby ? 0 : openTags.count, writingRuby)
        var hoisted = false
        var baseStart = open + 1
        var index = open + 1
        // Only the ruby's own children are visited: a child span is skipped to its end.
        while index < close {
            guard case .open(let tag, let annotationClasses, _) = text.events[index] else {
                index += 1
                continue
            }
            let end = text.closes[index]
            if tag == .rubyText {
                var styles = RubyStyles()
                if options.profile.hasRuby {
                    styles.ruby = classes.isEmpty ? nil : spanStyle(tag: 0, classes: classes, of: text)
                    styles.text = annotationClasses.isEmpty ? nil : spanStyle(tag: 0, classes: annotationClasses, of: text)
                }
                let (baseEvents, textEvents) = (baseStart..<index, index + 1..<end)
                appendRubyPair(
                    chain: chain, styles: styles, restoring: wasWritingRuby, hoisted: &hoisted, context: &context,
                    base: { $0.appendEvents(baseEvents, of: text, context: &$1) }, text: { $0.appendEvents(textEvents, of: text, context: &$1) })
                baseStart = end + 1
            }
            index = end + 1
        }
        if hoisted { reopenTags(chain) }
        appendEvents(baseStart..<close, of: text, context: &context)
    }

    /// The styles of a ruby's classes (on its base and its text) and of its `rt`'s (on its text).
    struct RubyStyles {
        var ruby: String?
        var text: String?

        /// How many spans they take in a ruby text.
        var count: Int { (ruby == nil ? 0 : 1) + (text == nil ? 0 : 1) }
    }

    /// Opens a ruby container and its base, and in the base the first `chain` spans of
    /// ``openTags`` and the span of the ruby's classes.
    mutating func appendRubyStart(chain: Int, styles: RubyStyles) {
        appendLiteral(#"<span tts:ruby="container"><span tts:ruby="base">"#)
        reopenTags(chain)
        appendStyledSpanStart(styles.ruby)
    }

    /// Closes a ruby base (and the spans opened in it) and opens its text, and in it the spans
    /// around the ruby and the spans of the ruby's and the `rt`'s classes.
    mutating func appendRubyText(chain: Int, styles: RubyStyles) {
        closeTags(chain + (styles.ruby == nil ? 0 : 1))
        appendLiteral(#"</span><span tts:ruby="text">"#)
        reopenTags(chain)
        appendStyledSpanStart(styles.ruby)
        appendStyledSpanStart(styles.text)
    }

    /// Closes a ruby text, the spans opened in it, and its container.
    mutating func appendRubyEnd(chain: Int, styles: RubyStyles) {
        closeTags(chain)
        closeSpans(2 + styles.count)
    }

    /// Writes `<span style="…">` when there is a style.
    func appendStyledSpanStart(_ style: String?) {
        guard let style else { return }
        line.append(#"<span style=""#)
        line.append(style)
        line.append(#"">"#)
    }

    /// Writes the end tags of `count` spans.
    func closeTags(_ count: Int) {
        for _ in 0..<count { line.append("</span>") }
    }

    /// One base and its text, written by `base` and `text` (the tree's nodes or the events): a
    /// container where the profile has ruby and the paragraph has room (the spans around it closed
    /// first, `hoisted`, and written again after the last), else `base(text)`.
    mutating func appendRubyPair(
        chain: Int, styles: RubyStyles, restoring wasWritingRuby: Bool, hoisted: inout Bool, context: inout TextContext,
        base: (inout Self, inout TextContext) -> Void, text: (inout Self, inout TextContext) -> Void
    ) {
        if options.profile.hasRuby, admitsRuby(chain: chain, styles: styles) {
            if !hoisted { closeTags(chain) }
            hoisted = true
            writingRuby = true
            appendRubyStart(chain: chain, styles: styles)
            base(&self, &context)
            appendRubyText(chain: chain, styles: styles)
            text(&self, &context)
            appendRubyEnd(chain: chain, styles: styles)
            writingRuby = wasWritingRuby
        } else {
            if hoisted { reopenTags(chain) }
            hoisted = false
            if !options.profile.hasRuby { losses.add(.ruby, cue: cueNumber) }
            base(&self, &context)
            appendLiteral("(")
            text(&self, &context)
            appendLiteral(")")
        }
    }

    /// Writes again the start tags of the first `count` spans of ``openTags``.
    func reopenTags(_ count: Int) {
        for index in 0..<count { line.appendCopy(of: openTags[index]) }
    }

    /// True when a ruby container, its base and its text fit in the paragraph, with the `chain`
    /// spans around the ruby opened again in the base, in the text and after the container, and
    /// the spans of the classes' styles; counts them (and the depth of the text, its deepest).
    mutating func admitsRuby(chain: Int, styles: RubyStyles) -> Bool {
        let nodes = 3 + 3 * chain + (styles.ruby == nil ? 0 : 2) + (styles.text == nil ? 0 : 1)
        guard paragraphNodes + nodes <= Self.maximumNodesPerParagraph else {
            losses.add(.flattened, cue: cueNumber)
            return false
        }
        guard admitsSpan(elements: 2 + styles.count) else { return false }
        paragraphNodes += nodes - 2 - styles.count
        return true
    }
}
