import CueKit

/// A cue as a paragraph, from a ``Cue`` or straight from the bytes a reader read it from: both
/// write through ``writeParagraph(identifier:start:end:settings:text:cue:)``, so that the two give
/// the same bytes.
extension TTMLDocumentBuilder {
    /// Writes a cue as a paragraph.
    mutating func write(_ cue: Cue) throws {
        var identifier = cue.id
        var text = cue.text
        try identifier.withUTF8 { identifier in
            try text.withUTF8 { text in
                try writeParagraph(
                    identifier: identifier, start: cue.start, end: cue.end, settings: cue.settings, text: text, textMayHaveMarkup: true,
                    cue: cue)
            }
        }
    }

    /// Writes a cue given as its identifier's and text's UTF-8 bytes (valid UTF-8, borrowed for the
    /// call), its times and its settings: what ``write(_:)`` writes for the ``Cue`` of them, with no
    /// `String` and no `Cue` made. `textMayHaveMarkup` false says the text holds neither `<` nor
    /// `&` (a reader's scan found none), so it is not looked for again. The cue counts as the next
    /// one, as a `.cue` event does.
    mutating func writeCue(
        identifier: UnsafeRawBufferPointer, start: Int, end: Int, settings: CueSettings, text: UnsafeRawBufferPointer,
        textMayHaveMarkup: Bool
    ) throws {
        cueNumber += 1
        try writeParagraph(
            identifier: identifier.assumingMemoryBound(to: UInt8.self), start: start, end: end, settings: settings,
            text: text.assumingMemoryBound(to: UInt8.self), textMayHaveMarkup: textMayHaveMarkup, cue: nil)
    }

    /// Records an identifier; false when it was written before.
    private mutating func isNewIdentifier(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
        identifierHashes.insert(UnsafeRawBufferPointer(id))
    }

    /// The paragraph of one cue. `cue` is the cue itself when there is one: its text's markup is
    /// then taken from it (by its string, or through its tree when ``writesThroughTheTree``);
    /// otherwise from `text`. `textMayHaveMarkup` false: `text` is known to hold neither `<` nor `&`.
    private mutating func writeParagraph(
        identifier: UnsafeBufferPointer<UInt8>, start: Int, end: Int, settings: CueSettings, text: UnsafeBufferPointer<UInt8>,
        textMayHaveMarkup: Bool, cue: Cue?
    ) throws {
        appendLiteral("<p")
        if !identifier.isEmpty {
            if identifierHashes.count >= Self.maximumIdentifiers {
                losses.add(.identifiersPastTheLimit, cue: cueNumber)
            } else if Self.isXMLName(bytes: identifier), identifier[0] != UInt8(ascii: "_"), isNewIdentifier(identifier) {
                appendLiteral(#" xml:id=""#)
                line.append(identifier)
                line.append(UInt8(ascii: "\""))
            } else {
                losses.add(.identifiers, cue: cueNumber)
            }
        }
        appendTimes(begin: max(start, 0), end: max(end, 0))
        spanDepth = 0
        paragraphNodes = 1
        openTags.reset()
        let lines = TextLineCount.lines(in: text)
        var region = region(for: settings, lines: Self.lineCount(settings, lines: lines))
        if options.profile.limitsShownRegions {
            let placement = shownRegions.place(region, lines: lines, from: start, to: end, regions: regions)
            region = placement.region
            if placement.isOverLimit { losses.add(.regionsShownAtOnce, cue: cueNumber) }
        }
        line.append(region)
        // One pass over the text's bytes: its direction, then (when it has no markup) the text.
        // WebVTT lays each cue out in its text's direction (its first strong character); TTML
        // paragraphs are left to right unless told.
        appendLiteral(#"" style=""#)
        line.append(paragraphStyle(settings.alignment, rightToLeft: Self.startsRightToLeft(bytes: text)))
        appendLiteral("\">")
        let wrapper = cueStyle()
        if wrapper != nil {
            spanDepth = 1
            paragraphNodes += 1
            let start = line.count
            line.append(everyCueSpanStart.bytes)
            openTags.push(start..<line.count)
        }
        if !textMayHaveMarkup || !CueTextEvents.hasMarkup(bytes: text) {
            appendText(bytes: text)
        } else {
            var context = TextContext(cueStart: start, cueEnd: end)
            if let cue, writesThroughTheTree {
                appendNodes(cue.nodes(), context: &context)
            } else {
                if let cue {
                    textEvents.parse(cue.text, into: &parsedText, sharedWith: cueTextParseCache)
                } else {
                    textEvents.parse(bytes: UnsafeRawBufferPointer(text), into: &parsedText, sharedWith: cueTextParseCache)
                }
                appendEvents(context: &context)
            }
        }
        if wrapper != nil {
            appendLiteral("</span></p>\n")
        } else {
            appendLiteral("</p>\n")
        }
        try body.paragraphEnded()
    }
}
