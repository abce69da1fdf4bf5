extension CueText {
    /// The deepest nesting of spans the parser builds: 128.
    ///
    /// Browsers set no limit, but a tree a million levels deep would overflow the stack of every
    /// recursive walk (comparing, hashing, freeing, writing it). Start tags past this depth are
    /// ignored like unknown tags and reported as ``DiagnosticCode/vttNestingTooDeep``; real cue text
    /// nests a handful of levels.
    public static let maximumNestingDepth = 128

    /// The most nodes (spans and pieces of text) a cue's tree holds: 100,000. Past it, tags are
    /// ignored (their text kept) and ``DiagnosticCode/vttTooManyNodes`` says so; a cue of millions
    /// of tags would otherwise take memory many times its size.
    public static let maximumNodes = 100_000

    /// The most diagnostics reported for one cue text: 100. A pathological cue (a million stray
    /// end tags) would otherwise produce a million; past the limit one
    /// ``DiagnosticCode/vttMoreProblems`` note says the rest were left out.
    public static let maximumDiagnosticsPerCue = 100

    /// Where a cue's text stands, so that its diagnostics point into the file.
    public struct Context: Sendable, Hashable {
        /// The location of the text's first character (the line after the cue's timing line).
        public var origin: SourceLocation
        /// The cue's start time in milliseconds, which timestamp tags must come after.
        public var cueStart: Int?
        /// The cue's end time in milliseconds, which timestamp tags must come before.
        public var cueEnd: Int?

        /// Creates a context.
        public init(origin: SourceLocation = .start, cueStart: Int? = nil, cueEnd: Int? = nil) {
            self.origin = origin
            self.cueStart = cueStart
            self.cueEnd = cueEnd
        }
    }

    /// The cue text tree of WebVTT cue text (W3C WebVTT, section 6.4, "WebVTT cue text parsing
    /// rules", with its tokenizer), exactly as a browser builds it for `getCueAsHTML()`.
    ///
    /// Unknown tags are dropped, unclosed spans end with the text, and every string token becomes
    /// its own text node (`a<x>b` gives two). Spans nest at most ``maximumNestingDepth`` deep.
    public static func nodes(from text: String) -> [CueNode] {
        var copy = text
        return copy.withUTF8 { bytes in
            // Plain text, the most common cue, is one text node: the string itself.
            if isPlainText(UnsafeRawBufferPointer(bytes)) { return bytes.isEmpty ? [] : [.text(text)] }
            return nodes(fromUTF8: UnsafeRawBufferPointer(bytes))
        }
    }

    /// True when the text holds no `&` or `<`, so that it is a single text token.
    private static func isPlainText(_ bytes: UnsafeRawBufferPointer) -> Bool {
        CueTextParser.nextSpecial(in: bytes, from: 0) == bytes.count
    }

    /// The cue text tree, appending to `diagnostics` every departure from the cue text syntax
    /// (WebVTT section 4.2.2), located with `context`.
    public static func nodes(from text: String, context: Context, diagnostics: inout [Diagnostic]) -> [CueNode] {
        var copy = text
        return copy.withUTF8 { buffer in
            var parser = CueTextParser(UnsafeRawBufferPointer(buffer), buildsTree: true, context: context)
            let nodes = parser.run()
            diagnostics += parser.diagnostics
            return nodes
        }
    }

    /// The cue text tree of UTF-8 bytes (which must be valid UTF-8).
    public static func nodes(fromUTF8 bytes: UnsafeRawBufferPointer) -> [CueNode] {
        var parser = CueTextParser(bytes, buildsTree: true, context: nil)
        return parser.run()
    }

    /// Checks cue text without building its tree: the diagnostics of
    /// ``nodes(from:context:diagnostics:)`` at a fraction of the cost.
    public static func diagnostics(forUTF8 bytes: UnsafeRawBufferPointer, context: Context) -> [Diagnostic] {
        var checker = Checker()
        return checker.diagnostics(forUTF8: bytes, context: context)
    }

    /// Checks the cue text of many cues in turn, keeping its working memory from one to the next:
    /// for readers that validate every cue of a large file.
    ///
    /// ```swift
    /// var checker = CueText.Checker()
    /// for cue in cues { diagnostics += checker.diagnostics(forUTF8: bytes, context: context) }
    /// ```
    public struct Checker: Sendable {
        private var parser = CueTextParser()

        /// Creates a checker.
        public init() {}

        /// The diagnostics of one cue text (``CueText/diagnostics(forUTF8:context:)``).
        public mutating func diagnostics(forUTF8 bytes: UnsafeRawBufferPointer, context: Context) -> [Diagnostic] {
            parser.reset(bytes, buildsTree: false, context: context)
            _ = parser.run()
            return parser.takeDiagnostics()
        }
    }
}

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
            case 4 where name.elementsEqual("ruby".utf8):
                self = .ruby
            case 4 where name.elementsEqual("lang".utf8):
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

    /// A span whose end tag has not come yet.
    struct OpenSpan {
        var tag: Tag
        var classes: [String]
        var annotation: String
        var children: [CueNode] = []
        /// Offset of its `<`.
        var start: Int
        var hasRubyText = false
    }

    enum TokenKind {
        case string, startTag, endTag, timestamp
    }

    private enum State {
        case data, tag, startTag, startTagClass, startTagAnnotation, endTag, timestampTag
    }

    /// The input of the current run; valid only during ``run()``.
    private var input = UnsafeRawBufferPointer(start: nil, count: 0)
    private var buildsTree = true
    private var context: CueText.Context?
    private(set) var diagnostics: [Diagnostic] = []

    private var position = 0
    private var tokenStart = 0
    // A string token: `input[textStart..<position]`, unless a reference was decoded into it, then
    // `decodedText` (filled only when building a tree).
    private var textStart = 0
    private var textLength = 0
    private var textIsDecoded = false
    private var decodedText: [UInt8] = []
    // A tag: name and classes are ranges of the input; the annotation too, unless a reference was
    // decoded into it.
    private var nameStart = 0
    private var nameEnd = 0
    private var classStart = 0
    private var classes: [Range<Int>] = []
    private var annotationStart = 0
    private var annotationEnd = 0
    private var annotationIsDecoded = false
    private var decodedAnnotation: [UInt8] = []
    private var terminated = true

    private var root: [CueNode] = []
    private var rootCount = 0
    private var open: [OpenSpan] = []
    private var reportedDepth = false
    /// Nodes made so far, for ``CueText/maximumNodes``.
    private var nodeCount = 0
    private var reportedNodes = false
    private var lastTimestamp: Int?
    private var locator = Locator(origin: .start)

    init() {}

    init(_ input: UnsafeRawBufferPointer, buildsTree: Bool, context: CueText.Context?) {
        reset(input, buildsTree: buildsTree, context: context)
    }

    /// Prepares a new run, keeping the capacity of the working buffers.
    mutating func reset(_ input: UnsafeRawBufferPointer, buildsTree: Bool, context: CueText.Context?) {
        self.input = input
        self.buildsTree = buildsTree
        self.context = context
        position = 0
        root = []
        rootCount = 0
        if !open.isEmpty { open.removeAll(keepingCapacity: true) }
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

    // MARK: Tokenizer

    private mutating func nextToken() -> TokenKind {
        tokenStart = position
        textStart = position
        textLength = 0
        textIsDecoded = false
        nameStart = position
        nameEnd = position
        if !classes.isEmpty { classes.removeAll(keepingCapacity: true) }
        annotationStart = position
        annotationEnd = position
        annotationIsDecoded = false
        terminated = true
        var state = State.data
        let count = input.count
        while true {
            let atEnd = position >= count
            let c: UInt8 = atEnd ? 0 : input[position]
            switch state {
            case .data:
                if atEnd { return .string }
                if c == ampersand {
                    consumeReference(into: .text, additionalAllowed: nil)
                    continue
                }
                if c == lessThan {
                    if textLength > 0 { return .string }
                    state = .tag
                    position += 1
                    continue
                }
                let end = Self.nextSpecial(in: input, from: position + 1)
                if buildsTree, textIsDecoded { decodedText.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[position..<end])) }
                textLength += end - position
                position = end

            case .tag:
                if atEnd {
                    terminated = false
                    return .startTag
                }
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20:
                    state = .startTagAnnotation
                    annotationStart = position + 1
                    annotationEnd = annotationStart
                case UInt8(ascii: "."):
                    state = .startTagClass
                    classStart = position + 1
                case UInt8(ascii: "/"):
                    state = .endTag
                    nameStart = position + 1
                    nameEnd = nameStart
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    state = .timestampTag
                    nameStart = position
                    nameEnd = position + 1
                case greaterThan:
                    position += 1
                    return .startTag
                default:
                    state = .startTag
                    nameStart = position
                    nameEnd = position + 1
                }
                position += 1

            case .startTag:
                if atEnd {
                    terminated = false
                    return .startTag
                }
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20:
                    // (After LF the spec starts the annotation with that LF: it is trimmed away.)
                    state = .startTagAnnotation
                    annotationStart = position + 1
                    annotationEnd = annotationStart
                case UInt8(ascii: "."):
                    state = .startTagClass
                    classStart = position + 1
                case greaterThan:
                    position += 1
                    return .startTag
                default:
                    nameEnd = position + 1
                }
                position += 1

            case .startTagClass:
                if atEnd {
                    classes.append(classStart..<position)
                    terminated = false
                    return .startTag
                }
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20:
                    classes.append(classStart..<position)
                    state = .startTagAnnotation
                    annotationStart = position + 1
                    annotationEnd = annotationStart
                case UInt8(ascii: "."):
                    classes.append(classStart..<position)
                    classStart = position + 1
                case greaterThan:
                    classes.append(classStart..<position)
                    position += 1
                    return .startTag
                default:
                    break
                }
                position += 1

            case .startTagAnnotation:
                if atEnd {
                    terminated = false
                    return .startTag
                }
                if c == ampersand {
                    consumeReference(into: .annotation, additionalAllowed: greaterThan)
                    continue
                }
                if c == greaterThan {
                    position += 1
                    return .startTag
                }
                if annotationIsDecoded { decodedAnnotation.append(c) }
                position += 1
                annotationEnd = position

            case .endTag:
                if atEnd {
                    terminated = false
                    return .endTag
                }
                position += 1
                if c == greaterThan { return .endTag }
                nameEnd = position

            case .timestampTag:
                if atEnd {
                    terminated = false
                    return .timestamp
                }
                position += 1
                if c == greaterThan { return .timestamp }
                nameEnd = position
            }
        }
    }

    /// The offset of the next `&` or `<` at or after `from`, or the end: eight bytes at a time.
    @inline(__always)
    static func nextSpecial(in input: UnsafeRawBufferPointer, from: Int) -> Int {
        guard let base = input.baseAddress else { return from }
        let count = input.count
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
        let ampersands = ones &* UInt64(ampersand), lessThans = ones &* UInt64(lessThan)
        var index = from
        while index + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let a = word ^ ampersands, l = word ^ lessThans
            let marks = (((a &- ones) & ~a) | ((l &- ones) & ~l)) & highBits
            if marks != 0 { return index + marks.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == ampersand || byte == lessThan { return index }
            index += 1
        }
        return count
    }

    private enum ReferenceTarget { case text, annotation }

    /// The "HTML character reference in data state" and "in annotation state": `position` is at
    /// the `&`, and moves past what was consumed.
    private mutating func consumeReference(into target: ReferenceTarget, additionalAllowed: UInt8?) {
        let ampersandOffset = position
        var problem: CharacterReference.Problem?
        let decoded = CharacterReference.consume(input, ampersand: position, additionalAllowed: additionalAllowed, problem: &problem)
        if let decoded, let found = decoded.problem {
            reportReference(found, at: ampersandOffset, end: decoded.end)
        } else if decoded == nil {
            if let problem {
                reportReference(problem, at: ampersandOffset, end: ampersandOffset + 1)
            } else if canReport {
                report(
                    .warning, .vttUnescapedAmpersand, at: ampersandOffset,
                    "'&' must be written '&amp;' in cue text; it is read as a literal '&'")
            }
        }
        guard let decoded else {
            // The `&` is text like any other character.
            position += 1
            switch target {
            case .text:
                textLength += 1
                if buildsTree, textIsDecoded { decodedText.append(ampersand) }
            case .annotation:
                if annotationIsDecoded { decodedAnnotation.append(ampersand) }
                annotationEnd = position
            }
            return
        }
        switch target {
        case .text:
            if buildsTree {
                if !textIsDecoded {
                    decodedText.removeAll(keepingCapacity: true)
                    decodedText.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[textStart..<ampersandOffset]))
                    textIsDecoded = true
                }
                append(decoded.first, to: &decodedText)
                if let second = decoded.second { append(second, to: &decodedText) }
            } else {
                textIsDecoded = true
            }
            textLength += 1
        case .annotation:
            if !annotationIsDecoded {
                decodedAnnotation.removeAll(keepingCapacity: true)
                decodedAnnotation.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[annotationStart..<ampersandOffset]))
                annotationIsDecoded = true
            }
            append(decoded.first, to: &decodedAnnotation)
            if let second = decoded.second { append(second, to: &decodedAnnotation) }
            annotationEnd = decoded.end
        }
        position = decoded.end
    }

    private func append(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UTF8.encode(scalar)!)
    }

    /// The tag's annotation, trimmed and with runs of ASCII white space collapsed into single
    /// spaces, as the tokenizer returns it.
    private func annotationBytes() -> [UInt8] {
        var result: [UInt8] = []
        var pendingSpace = false
        func take(_ byte: UInt8) {
            if isASCIIWhitespace(byte) {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace {
                    result.append(0x20)
                    pendingSpace = false
                }
                result.append(byte)
            }
        }
        if annotationIsDecoded {
            for byte in decodedAnnotation { take(byte) }
        } else {
            for index in annotationStart..<annotationEnd { take(input[index]) }
        }
        return result
    }

    /// True when the annotation is empty once trimmed.
    private var annotationIsEmpty: Bool {
        if annotationIsDecoded { return decodedAnnotation.allSatisfy(isASCIIWhitespace) }
        for index in annotationStart..<annotationEnd where !isASCIIWhitespace(input[index]) { return false }
        return true
    }

    private var nameBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: input[nameStart..<nameEnd]) }

    private func string(_ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: input[from..<to]), as: UTF8.self)
    }

    // MARK: Tree building

    private mutating func append(_ node: CueNode) {
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
            if let last = open.indices.last, case .text(var previous)? = open[last].children.last {
                let slot = open[last].children.count - 1
                open[last].children[slot] = .text("")
                previous += text
                open[last].children[slot] = .text(previous)
                return
            }
        }
        if open.isEmpty {
            root.append(node)
            rootCount += 1
        } else {
            open[open.count - 1].children.append(node)
        }
    }

    private mutating func appendCount() {
        if open.isEmpty { rootCount += 1 }
    }

    private mutating func handleStartTag() {
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
        var classNames: [String] = []
        if buildsTree, !classes.isEmpty {
            for range in classes where !range.isEmpty { classNames.append(string(range.lowerBound, range.upperBound)) }
        }
        let annotation = buildsTree && tag.takesAnnotation ? String(decoding: annotationBytes(), as: UTF8.self) : ""
        if tag == .rubyText { open[open.count - 1].hasRubyText = true }
        open.append(OpenSpan(tag: tag, classes: classNames, annotation: annotation, start: tokenStart))
    }

    /// The start tag rules a conformance checker applies beyond what the parser does.
    private mutating func checkStartTag(_ tag: Tag) {
        if classes.contains(where: \.isEmpty) {
            report(.warning, .vttEmptyClass, at: tokenStart, "<\(tag.name)> has an empty class name (two dots, or a dot at the end)")
        }
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

    private mutating func handleEndTag() {
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

    private mutating func handleTimestamp() {
        var index = 0
        let value = nameBytes
        let result = Timestamp.collect(from: value, at: &index)
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
        if buildsTree {
            append(.timestamp(time))
        } else {
            appendCount()
        }
    }

    /// Closes the innermost open span.
    private mutating func close() {
        let span = open.removeLast()
        if span.tag == .ruby, !span.hasRubyText {
            report(.warning, .vttRubyWithoutText, at: span.start, "<ruby> has no <rt> ruby text")
        }
        if buildsTree {
            append(.span(CueSpan(kind(of: span), classes: span.classes, children: span.children)))
        } else {
            appendCount()
        }
    }

    /// Closes what is still open at the end of the text.
    private mutating func closeAll() {
        while let span = open.last {
            let isWholeCueVoice = span.tag == .voice && open.count == 1 && rootCount == 0
            let isLastRubyText = span.tag == .rubyText
            if !isWholeCueVoice, !isLastRubyText {
                report(.warning, .vttUnclosedTag, at: span.start, "<\(span.tag.name)> is not closed; add </\(span.tag.name)>")
            }
            close()
        }
    }

    private func kind(of span: OpenSpan) -> CueSpan.Kind {
        switch span.tag {
        case .class: .class
        case .italic: .italic
        case .bold: .bold
        case .underline: .underline
        case .ruby: .ruby
        case .rubyText: .rubyText
        case .voice: .voice(span.annotation)
        case .language: .language(span.annotation)
        }
    }

    // MARK: Diagnostics

    private mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, at offset: Int, _ message: String) {
        guard context != nil, diagnostics.count <= CueText.maximumDiagnosticsPerCue else { return }
        let location = locator.location(of: offset, in: input)
        if diagnostics.count == CueText.maximumDiagnosticsPerCue {
            diagnostics.append(Diagnostic(.note, .vttMoreProblems, at: location, "more problems in this cue text are not reported"))
        } else {
            diagnostics.append(Diagnostic(severity, code, at: location, message))
        }
    }

    /// False once diagnostics are off or the per-cue limit is reached: messages need not be built.
    private var canReport: Bool { context != nil && diagnostics.count <= CueText.maximumDiagnosticsPerCue }

    private mutating func reportReference(_ problem: CharacterReference.Problem, at offset: Int, end: Int) {
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

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// Turns byte offsets of a text into file locations, moving forward through the text.
struct Locator {
    let origin: SourceLocation
    private var offset = 0
    private var line: Int
    private var column: Int

    init(origin: SourceLocation) {
        self.origin = origin
        self.line = origin.line
        self.column = origin.column
    }

    /// The location of the byte at `target`; columns count Unicode scalars.
    mutating func location(of target: Int, in bytes: UnsafeRawBufferPointer) -> SourceLocation {
        if target < offset {
            offset = 0
            line = origin.line
            column = origin.column
        }
        let end = min(target, bytes.count)
        while offset < end {
            let byte = bytes[offset]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            offset += 1
        }
        return SourceLocation(line: line, column: column)
    }
}

private let ampersand = UInt8(ascii: "&")
private let lessThan = UInt8(ascii: "<")
private let greaterThan = UInt8(ascii: ">")

@inline(__always)
private func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
}

@inline(__always)
private func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) &- UInt8(ascii: "a") < 26
}
