
/// The WebVTT cue text tokenizer and tree builder (W3C WebVTT, section 6.4), on UTF-8 bytes.
///
/// Every character the tokenizer treats specially is ASCII, so it works byte by byte. Tokens are
/// ranges of the input: tag names, classes and most text are never copied; only a token holding a
/// character reference is decoded into a buffer. The tree is built without recursion: open spans
/// sit on a stack and become nodes of their parent when they close.
struct CueTextParser: @unchecked Sendable {
    /// The tag names WebVTT cue text defines.
    enum Tag: Equatable {
        case `class`, italic, bold, underline, ruby, rubyText, voice, language

        init?(_ name: UnsafeRawBufferPointer) {
            switch name.count {
            case 1:
                switch name[0] {
                case UInt8(ascii: "c"): self = .class
                case UInt8(ascii: "i"): self = .italic
                case UInt8(ascii: "b"): self = .bold
                case UInt8(ascii: "u"): self = .underline
                case UInt8(ascii: "v"): self = .voice
                default: return nil
                }
            case 2 where name[0] == UInt8(ascii: "r") && name[1] == UInt8(ascii: "t"):
                self = .rubyText
            case 4 where ByteScanning.equals(name, "ruby"):
                self = .ruby
            case 4 where ByteScanning.equals(name, "lang"):
                self = .language
            default:
                return nil
            }
        }

        var name: String {
            switch self {
            case .class: "c"
            case .italic: "i"
            case .bold: "b"
            case .underline: "u"
            case .ruby: "ruby"
            case .rubyText: "rt"
            case .voice: "v"
            case .language: "lang"
            }
        }

        var takesAnnotation: Bool { self == .voice || self == .language }
    }

    /// A span whose end tag has not come yet: what every mode needs of it (plain values, so that
    /// a check without a tree pushes and pops no reference).
    struct OpenSpan {
        var tag: Tag
        /// Offset of its `<`.
        var start: Int
        var hasRubyText = false
    }

    /// What a tree keeps of an open span until it closes.
    struct OpenSpanContent {
        var classes: [String]
        var annotation: String
        var children: [CueNode] = []
    }

    enum TokenKind {
        case string, startTag, endTag, timestamp
    }

    /// The input of the current run; valid only during ``run()``.
    var input = UnsafeRawBufferPointer(start: nil, count: 0)
    var buildsTree = true
    /// Record ``CueTextEvents`` instead of building a tree (``buildsTree`` is then false).
    var recordsEvents = false
    var recorded = CueTextEvents.Parsed()
    /// Text and annotations are decoded for a tree or for events; a checker only counts.
    var decodesText: Bool { buildsTree || recordsEvents }
    var context: CueText.Context?
    var diagnostics: [Diagnostic] = []

    var position = 0
    var tokenStart = 0
    // A string token: `input[textStart..<position]`, unless a reference was decoded into it, then
    // `decodedText` (filled only when building a tree).
    var textStart = 0
    var textLength = 0
    var textIsDecoded = false
    var decodedText: [UInt8] = []
    // A tag: name and classes are ranges of the input; the annotation too, unless a reference was
    // decoded into it.
    var nameStart = 0
    var nameEnd = 0
    var classes: [Range<Int>] = []
    var annotationStart = 0
    var annotationEnd = 0
    var annotationIsDecoded = false
    var decodedAnnotation: [UInt8] = []
    var terminated = true

    var root: [CueNode] = []
    var rootCount = 0
    var open: [OpenSpan] = []
    /// The content of each open span, beside ``open``, when building a tree.
    var openContent: [OpenSpanContent] = []
    var reportedDepth = false
    /// Nodes made so far, for ``CueText/maximumNodes``.
    var nodeCount = 0
    var reportedNodes = false
    var lastTimestamp: Int?
    var locator = Locator(origin: .start)

    init() {}

    init(_ input: UnsafeRawBufferPointer, buildsTree: Bool, context: CueText.Context?) {
        reset(input, buildsTree: buildsTree, context: context)
    }

    /// Prepares a new run, keeping the capacity of the working buffers.
    mutating func reset(_ input: UnsafeRawBufferPointer, buildsTree: Bool, context: CueText.Context?) {
        self.input = input
        self.buildsTree = buildsTree
        recordsEvents = false
        self.context = context
        position = 0
        root = []
        rootCount = 0
        if !open.isEmpty { open.removeAll(keepingCapacity: true) }
        if !openContent.isEmpty { openContent.removeAll(keepingCapacity: true) }
        reportedDepth = false
        nodeCount = 0
        reportedNodes = false
        lastTimestamp = nil
        locator = Locator(origin: context?.origin ?? .start)
    }

    /// The diagnostics of the last run, leaving none behind (nor a pointer to its input).
    mutating func takeDiagnostics() -> [Diagnostic] {
        defer {
            diagnostics = []
            input = UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return diagnostics
    }

    /// Runs the parsing rules over the whole input and returns the tree (empty when not building).
    mutating func run() -> [CueNode] {
        while position < input.count {
            switch nextToken() {
            case .string:
                if buildsTree {
                    append(.text(textIsDecoded ? String(decoding: decodedText, as: UTF8.self) : string(textStart, position)))
                } else if recordsEvents {
                    let start = recorded.bytes.count
                    if textIsDecoded {
                        recorded.bytes.append(contentsOf: decodedText)
                    } else {
                        recorded.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[textStart..<position]))
                    }
                    recorded.events.append(.text(start..<recorded.bytes.count))
                    recordNode()
                } else {
                    appendCount()
                }
            case .startTag:
                handleStartTag()
            case .endTag:
                handleEndTag()
            case .timestamp:
                handleTimestamp()
            }
        }
        closeAll()
        return root
    }


    // MARK: Tree building

    mutating func append(_ node: CueNode) {
        nodeCount += 1
        if nodeCount > CueText.maximumNodes, case .text(let text) = node {
            // Past the limit tags are ignored: text goes on the text before it.
            // The slot is emptied before appending, so the text is appended in place, not copied.
            if open.isEmpty, case .text(var previous)? = root.last {
                root[root.count - 1] = .text("")
                previous += text
                root[root.count - 1] = .text(previous)
                return
            }
            if let last = openContent.indices.last, case .text(var previous)? = openContent[last].children.last {
                let slot = openContent[last].children.count - 1
                openContent[last].children[slot] = .text("")
                previous += text
                openContent[last].children[slot] = .text(previous)
                return
            }
        }
        if open.isEmpty {
            root.append(node)
            rootCount += 1
        } else {
            openContent[openContent.count - 1].children.append(node)
        }
    }

    /// Counts a node made while recording events, as ``append(_:)`` counts it in a tree.
    mutating func recordNode() {
        nodeCount += 1
        if open.isEmpty { rootCount += 1 }
    }

    /// Records a start tag that opens a span: its classes and annotation copied, decoded.
    mutating func recordOpen(_ tag: Tag) {
        let firstClass = recorded.classRanges.count
        for range in classes where !range.isEmpty {
            let start = recorded.bytes.count
            recorded.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[range]))
            recorded.classRanges.append(start..<recorded.bytes.count)
        }
        let annotationStart = recorded.bytes.count
        if tag.takesAnnotation {
            // Taken out while appended to: passing `&recorded.bytes` to a method of self would copy
            // the buffer on every annotation.
            var bytes: [UInt8] = []
            swap(&bytes, &recorded.bytes)
            appendAnnotation(to: &bytes)
            swap(&bytes, &recorded.bytes)
        }
        recorded.events.append(
            .open(CueTextEvents.Tag(tag), classes: firstClass..<recorded.classRanges.count, annotation: annotationStart..<recorded.bytes.count))
    }

    /// Counts a node a check without a tree would have made, as ``append(_:)`` counts it in a
    /// tree (so that the node limit stops the check where it stops the tree).
    mutating func appendCount() {
        nodeCount += 1
        if open.isEmpty { rootCount += 1 }
    }

    mutating func handleStartTag() {
        guard let tag = Tag(nameBytes) else {
            guard canReport else { return }
            if nameStart == nameEnd || !isASCIILetter(input[nameStart]) {
                report(
                    .error, .vttUnescapedLessThan, at: tokenStart,
                    "'<' starts a tag here, so the text up to the next '>' is dropped; write '&lt;' for a literal '<'")
            } else {
                report(
                    .error, .vttUnknownTag, at: tokenStart,
                    "unknown tag <\(string(nameStart, nameEnd))> is ignored; WebVTT knows c, i, b, u, ruby, rt, v and lang")
            }
            return
        }
        if !terminated {
            report(.warning, .vttUnterminatedTag, at: tokenStart, "the cue text ends inside the tag <\(tag.name)>; close it with '>'")
        }
        if tag == .rubyText, open.last?.tag != .ruby {
            report(.error, .vttMisplacedRubyText, at: tokenStart, "<rt> is ignored outside <ruby>")
            return
        }
        if nodeCount >= CueText.maximumNodes {
            // A cue of millions of tags would take memory many times its size as a tree: past the
            // limit, tags are ignored and their text joins the text before it.
            if !reportedNodes {
                reportedNodes = true
                report(
                    .error, .vttTooManyNodes, at: tokenStart,
                    "the cue holds more than \(CueText.maximumNodes) spans and pieces of text; further tags are ignored")
            }
            return
        }
        if open.count >= CueText.maximumNestingDepth {
            if !reportedDepth {
                reportedDepth = true
                report(
                    .error, .vttNestingTooDeep, at: tokenStart,
                    "spans nest more than \(CueText.maximumNestingDepth) deep; deeper tags are ignored")
            }
            return
        }
        if canReport { checkStartTag(tag) }
        if buildsTree {
            var classNames: [String] = []
            for range in classes where !range.isEmpty { classNames.append(string(range.lowerBound, range.upperBound)) }
            let annotation = tag.takesAnnotation ? String(decoding: annotationBytes(), as: UTF8.self) : ""
            openContent.append(OpenSpanContent(classes: classNames, annotation: annotation))
        }
        if recordsEvents { recordOpen(tag) }
        if tag == .rubyText { open[open.count - 1].hasRubyText = true }
        open.append(OpenSpan(tag: tag, start: tokenStart))
    }

    /// The start tag rules a conformance checker applies beyond what the parser does.
    mutating func checkStartTag(_ tag: Tag) {
        if classes.contains(where: { $0.isEmpty }) {
            report(.warning, .vttEmptyClass, at: tokenStart, "<\(tag.name)> has an empty class name (two dots, or a dot at the end)")
        }
        let annotationIsEmpty = Self.isEmptyAnnotation(
            input, annotationStart, annotationEnd, decoded: decodedAnnotation, isDecoded: annotationIsDecoded)
        if tag.takesAnnotation {
            if annotationIsEmpty {
                let what = tag == .voice ? "the speaker's name" : "a language tag"
                report(
                    .warning, .vttMissingAnnotation, at: tokenStart,
                    "<\(tag.name)> needs an annotation: \(what), as in <\(tag == .voice ? "v Name" : "lang en")>")
            } else if tag == .language, case let annotation = annotationBytes(), !LanguageTag.isWellFormed(annotation) {
                report(
                    .warning, .vttBadLanguageTag, at: tokenStart,
                    "'\(String(decoding: annotation, as: UTF8.self))' is not a well-formed BCP 47 language tag")
            }
        } else if !annotationIsEmpty {
            report(
                .error, .vttUnexpectedAnnotation, at: tokenStart,
                "<\(tag.name)> takes no annotation; '\(String(decoding: annotationBytes(), as: UTF8.self))' is ignored")
        }
    }

    mutating func handleEndTag() {
        if !terminated {
            report(.warning, .vttUnterminatedTag, at: tokenStart, "the cue text ends inside an end tag; close it with '>'")
        }
        let tag = Tag(nameBytes)
        if let top = open.last, let tag {
            if tag == top.tag {
                close()
                return
            }
            if tag == .ruby, top.tag == .rubyText {
                close()
                close()
                return
            }
        }
        guard canReport else { return }
        let written = "</" + string(nameStart, nameEnd) + ">"
        if let top = open.last {
            report(.error, .vttUnmatchedEndTag, at: tokenStart, "\(written) does not close the open <\(top.tag.name)> and is ignored")
        } else {
            report(.error, .vttUnmatchedEndTag, at: tokenStart, "\(written) closes no open tag and is ignored")
        }
    }

    mutating func handleTimestamp() {
        var index = 0
        let value = nameBytes
        let result = CueTimestamp.collect(from: value, at: &index)
        guard case .success(let collected) = result, index == value.count else {
            guard canReport else { return }
            let written = "<" + string(nameStart, nameEnd) + (terminated ? ">" : "")
            if case .failure(let failure) = result, failure.reason == .outOfRange {
                report(.error, .vttTimestampOutOfRange, at: tokenStart, "timestamp tag \(written) is too large and is ignored")
            } else {
                report(.error, .vttBadTimestamp, at: tokenStart, "timestamp tag \(written) is not a valid timestamp and is ignored")
            }
            return
        }
        let time = collected.milliseconds
        if let context, canReport {
            let written = "<" + string(nameStart, nameEnd) + (terminated ? ">" : "")
            if let last = lastTimestamp, time <= last {
                report(
                    .warning, .vttTimestampTagOrder, at: tokenStart, "timestamp tag \(written) must come after the previous one in the cue")
            } else if let start = context.cueStart, time <= start {
                report(.warning, .vttTimestampTagOrder, at: tokenStart, "timestamp tag \(written) must be after the cue's start time")
            } else if let end = context.cueEnd, time >= end {
                report(.warning, .vttTimestampTagOrder, at: tokenStart, "timestamp tag \(written) must be before the cue's end time")
            }
        }
        lastTimestamp = time
        if recordsEvents {
            recorded.events.append(.timestamp(time))
            recordNode()
        } else if buildsTree {
            append(.timestamp(time))
        } else {
            appendCount()
        }
    }

    /// Closes the innermost open span.
    mutating func close() {
        let span = open.removeLast()
        if span.tag == .ruby, !span.hasRubyText {
            report(.warning, .vttRubyWithoutText, at: span.start, "<ruby> has no <rt> ruby text")
        }
        if buildsTree {
            let content = openContent.removeLast()
            let kind = CueTextEvents.Tag(span.tag).kind(annotation: content.annotation)
            append(.span(CueSpan(kind, classes: content.classes, children: content.children)))
        } else if recordsEvents {
            recorded.events.append(.close)
            recordNode()
        } else {
            appendCount()
        }
    }

    /// Closes what is still open at the end of the text.
    mutating func closeAll() {
        while let span = open.last {
            let isWholeCueVoice = span.tag == .voice && open.count == 1 && rootCount == 0
            let isLastRubyText = span.tag == .rubyText
            if !isWholeCueVoice, !isLastRubyText {
                report(.warning, .vttUnclosedTag, at: span.start, "<\(span.tag.name)> is not closed; add </\(span.tag.name)>")
            }
            close()
        }
    }

    // MARK: Diagnostics

    mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, at offset: Int, _ message: String) {
        guard context != nil, diagnostics.count <= CueText.maximumDiagnosticsPerCue else { return }
        let location = locator.location(of: offset, in: input)
        if diagnostics.count == CueText.maximumDiagnosticsPerCue {
            diagnostics.append(Diagnostic(.note, .vttMoreProblems, at: location, "more problems in this cue text are not reported"))
        } else {
            diagnostics.append(Diagnostic(severity, code, at: location, message))
        }
    }

    /// False once diagnostics are off or the per-cue limit is reached: messages need not be built.
    var canReport: Bool { context != nil && diagnostics.count <= CueText.maximumDiagnosticsPerCue }

    mutating func reportReference(_ problem: CharacterReference.Problem, at offset: Int, end: Int) {
        guard canReport else { return }
        let written = String(decoding: UnsafeRawBufferPointer(rebasing: input[offset..<min(end, input.count)]), as: UTF8.self)
        switch problem {
        case .missingSemicolon:
            report(.warning, .vttUnterminatedCharacterReference, at: offset, "character reference '\(written)' lacks its ';'")
        case .noDigits:
            report(
                .warning, .vttBadCharacterReference, at: offset,
                "'&#' starts a numeric character reference but no digits follow; it is read as text")
        case .invalidCodePoint(let value):
            report(
                .error, .vttBadCharacterReference, at: offset,
                "character reference '\(written)' names \(Self.hex(value)), which is not allowed; it is read as U+FFFD")
        case .controlCharacter(let value):
            report(
                .warning, .vttBadCharacterReference, at: offset,
                "character reference '\(written)' names the control or noncharacter \(Self.hex(value))")
        case .unknownName:
            report(
                .warning, .vttUnknownCharacterReference, at: offset,
                "unknown character reference; it is read as text (write '&amp;' for a literal '&')")
        }
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
