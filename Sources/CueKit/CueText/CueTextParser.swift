extension CueText {
    /// The deepest nesting of spans the parser builds: 128.
    ///
    /// Browsers set no limit, but a tree a million levels deep would overflow the stack of every
    /// recursive walk (comparing, hashing, freeing, writing it). Start tags past this depth are
    /// ignored like unknown tags and reported as ``DiagnosticCode/vttNestingTooDeep``; real cue text
    /// nests a handful of levels.
    public static let maximumNestingDepth = 128

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
        return copy.withUTF8 { nodes(fromUTF8: UnsafeRawBufferPointer($0)) }
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
    /// ``nodes(from:context:diagnostics:)`` at a fraction of the cost, for readers that validate
    /// every cue of a large file.
    public static func diagnostics(forUTF8 bytes: UnsafeRawBufferPointer, context: Context) -> [Diagnostic] {
        var parser = CueTextParser(bytes, buildsTree: false, context: context)
        _ = parser.run()
        return parser.diagnostics
    }
}

/// The WebVTT cue text tokenizer and tree builder (W3C WebVTT, section 6.4), on UTF-8 bytes.
///
/// Every character the tokenizer treats specially is ASCII, so it works byte by byte and copies
/// runs of other bytes whole. The tree is built without recursion: open spans sit on a stack and
/// become nodes of their parent when they close.
struct CueTextParser {
    /// The tag names WebVTT cue text defines.
    enum Tag: Equatable {
        case `class`, italic, bold, underline, ruby, rubyText, voice, language

        init?(_ name: [UInt8]) {
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

    let input: UnsafeRawBufferPointer
    let buildsTree: Bool
    let context: CueText.Context?
    private(set) var diagnostics: [Diagnostic] = []

    private var position = 0
    private var tokenStart = 0
    // The current token. `text` is only filled when building a tree.
    private var text: [UInt8] = []
    private var textLength = 0
    private var name: [UInt8] = []
    private var classBytes: [UInt8] = []
    private var classEnds: [Int] = []
    private var annotation: [UInt8] = []
    private var terminated = true

    private var root: [CueNode] = []
    private var rootCount = 0
    private var open: [OpenSpan] = []
    private var reportedDepth = false
    private var lastTimestamp: Int?
    private var locator: Locator

    init(_ input: UnsafeRawBufferPointer, buildsTree: Bool, context: CueText.Context?) {
        self.input = input
        self.buildsTree = buildsTree
        self.context = context
        self.locator = Locator(origin: context?.origin ?? .start)
    }

    /// Runs the parsing rules over the whole input and returns the tree (empty when not building).
    mutating func run() -> [CueNode] {
        while position < input.count {
            switch nextToken() {
            case .string:
                if buildsTree {
                    append(.text(String(decoding: text, as: UTF8.self)))
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
        textLength = 0
        if buildsTree { text.removeAll(keepingCapacity: true) }
        name.removeAll(keepingCapacity: true)
        classBytes.removeAll(keepingCapacity: true)
        classEnds.removeAll(keepingCapacity: true)
        annotation.removeAll(keepingCapacity: true)
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
                var end = position + 1
                while end < count {
                    let byte = input[end]
                    if byte == ampersand || byte == lessThan { break }
                    end += 1
                }
                if buildsTree { text.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[position..<end])) }
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
                case UInt8(ascii: "."):
                    state = .startTagClass
                case UInt8(ascii: "/"):
                    state = .endTag
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    name.append(c)
                    state = .timestampTag
                case greaterThan:
                    position += 1
                    return .startTag
                default:
                    name.append(c)
                    state = .startTag
                }
                position += 1

            case .startTag:
                if atEnd {
                    terminated = false
                    return .startTag
                }
                switch c {
                case 0x09, 0x0C, 0x20:
                    state = .startTagAnnotation
                case 0x0A:
                    annotation.append(c)
                    state = .startTagAnnotation
                case UInt8(ascii: "."):
                    state = .startTagClass
                case greaterThan:
                    position += 1
                    return .startTag
                default:
                    name.append(c)
                }
                position += 1

            case .startTagClass:
                if atEnd {
                    classEnds.append(classBytes.count)
                    terminated = false
                    return .startTag
                }
                switch c {
                case 0x09, 0x0C, 0x20:
                    classEnds.append(classBytes.count)
                    state = .startTagAnnotation
                case 0x0A:
                    classEnds.append(classBytes.count)
                    annotation.append(c)
                    state = .startTagAnnotation
                case UInt8(ascii: "."):
                    classEnds.append(classBytes.count)
                case greaterThan:
                    classEnds.append(classBytes.count)
                    position += 1
                    return .startTag
                default:
                    classBytes.append(c)
                }
                position += 1

            case .startTagAnnotation:
                if atEnd {
                    terminated = false
                    normalizeAnnotation()
                    return .startTag
                }
                if c == ampersand {
                    consumeReference(into: .annotation, additionalAllowed: greaterThan)
                    continue
                }
                if c == greaterThan {
                    position += 1
                    normalizeAnnotation()
                    return .startTag
                }
                annotation.append(c)
                position += 1

            case .endTag:
                if atEnd {
                    terminated = false
                    return .endTag
                }
                position += 1
                if c == greaterThan { return .endTag }
                name.append(c)

            case .timestampTag:
                if atEnd {
                    terminated = false
                    return .timestamp
                }
                position += 1
                if c == greaterThan { return .timestamp }
                name.append(c)
            }
        }
    }

    private enum ReferenceTarget { case text, annotation }

    /// The "HTML character reference in data state" and "in annotation state": `position` is at
    /// the `&`, and moves past what was consumed.
    private mutating func consumeReference(into target: ReferenceTarget, additionalAllowed: UInt8?) {
        let ampersandOffset = position
        var problem: CharacterReference.Problem?
        if let decoded = CharacterReference.consume(input, ampersand: position, additionalAllowed: additionalAllowed, problem: &problem) {
            if let found = decoded.problem { reportReference(found, at: ampersandOffset, end: decoded.end) }
            append(decoded.first, to: target)
            if let second = decoded.second { append(second, to: target) }
            position = decoded.end
        } else {
            if let problem {
                reportReference(problem, at: ampersandOffset, end: ampersandOffset + 1)
            } else {
                report(.warning, .vttUnescapedAmpersand, at: ampersandOffset, "'&' must be written '&amp;' in cue text; it is read as a literal '&'")
            }
            append(Unicode.Scalar(ampersand), to: target)
            position += 1
        }
    }

    private mutating func append(_ scalar: Unicode.Scalar, to target: ReferenceTarget) {
        switch target {
        case .text:
            var utf8 = UTF8.encode(scalar)!.makeIterator()
            while let byte = utf8.next() {
                if buildsTree { text.append(byte) }
                textLength += 1
            }
        case .annotation:
            annotation.append(contentsOf: UTF8.encode(scalar)!)
        }
    }

    /// Trims the annotation and collapses its runs of ASCII white space into single spaces.
    private mutating func normalizeAnnotation() {
        var written = 0
        var pendingSpace = false
        for index in annotation.indices {
            let byte = annotation[index]
            if isASCIIWhitespace(byte) {
                pendingSpace = written > 0
            } else {
                if pendingSpace {
                    annotation[written] = 0x20
                    written += 1
                    pendingSpace = false
                }
                annotation[written] = byte
                written += 1
            }
        }
        annotation.removeLast(annotation.count - written)
    }

    // MARK: Tree building

    private mutating func append(_ node: CueNode) {
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
        guard let tag = Tag(name) else {
            if name.isEmpty || !isASCIILetter(name[0]) {
                report(.error, .vttUnescapedLessThan, at: tokenStart, "'<' starts a tag here, so the text up to the next '>' is dropped; write '&lt;' for a literal '<'")
            } else {
                report(.error, .vttUnknownTag, at: tokenStart, "unknown tag <\(String(decoding: name, as: UTF8.self))> is ignored; WebVTT knows c, i, b, u, ruby, rt, v and lang")
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
        if open.count >= CueText.maximumNestingDepth {
            if !reportedDepth {
                reportedDepth = true
                report(.error, .vttNestingTooDeep, at: tokenStart, "spans nest more than \(CueText.maximumNestingDepth) deep; deeper tags are ignored")
            }
            return
        }
        if context != nil { checkStartTag(tag) }
        var classes: [String] = []
        if buildsTree, !classEnds.isEmpty {
            var start = 0
            for end in classEnds {
                if end > start { classes.append(String(decoding: classBytes[start..<end], as: UTF8.self)) }
                start = end
            }
        }
        let annotationText = buildsTree && tag.takesAnnotation ? String(decoding: annotation, as: UTF8.self) : ""
        if tag == .rubyText { open[open.count - 1].hasRubyText = true }
        open.append(OpenSpan(tag: tag, classes: classes, annotation: annotationText, start: tokenStart))
    }

    /// The start tag rules a conformance checker applies beyond what the parser does.
    private mutating func checkStartTag(_ tag: Tag) {
        var start = 0
        for end in classEnds {
            if end == start {
                report(.warning, .vttEmptyClass, at: tokenStart, "<\(tag.name)> has an empty class name (two dots, or a dot at the end)")
                break
            }
            start = end
        }
        if tag.takesAnnotation {
            if annotation.isEmpty {
                let what = tag == .voice ? "the speaker's name" : "a language tag"
                report(.warning, .vttMissingAnnotation, at: tokenStart, "<\(tag.name)> needs an annotation: \(what), as in <\(tag == .voice ? "v Name" : "lang en")>")
            } else if tag == .language, !LanguageTag.isWellFormed(annotation) {
                report(.warning, .vttBadLanguageTag, at: tokenStart, "'\(String(decoding: annotation, as: UTF8.self))' is not a well-formed BCP 47 language tag")
            }
        } else if !annotation.isEmpty {
            report(.error, .vttUnexpectedAnnotation, at: tokenStart, "<\(tag.name)> takes no annotation; '\(String(decoding: annotation, as: UTF8.self))' is ignored")
        }
    }

    private mutating func handleEndTag() {
        if !terminated {
            report(.warning, .vttUnterminatedTag, at: tokenStart, "the cue text ends inside an end tag; close it with '>'")
        }
        let tag = Tag(name)
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
        let written = "</" + String(decoding: name, as: UTF8.self) + ">"
        if let top = open.last {
            report(.error, .vttUnmatchedEndTag, at: tokenStart, "\(written) does not close the open <\(top.tag.name)> and is ignored")
        } else {
            report(.error, .vttUnmatchedEndTag, at: tokenStart, "\(written) closes no open tag and is ignored")
        }
    }

    private mutating func handleTimestamp() {
        var index = 0
        let result = name.withUnsafeBytes { Timestamp.collect(from: $0, at: &index) }
        let written = "<" + String(decoding: name, as: UTF8.self) + (terminated ? ">" : "")
        guard case .success(let collected) = result, index == name.count else {
            if case .failure(let failure) = result, failure.reason == .outOfRange {
                report(.error, .vttTimestampOutOfRange, at: tokenStart, "timestamp tag \(written) is too large and is ignored")
            } else {
                report(.error, .vttBadTimestamp, at: tokenStart, "timestamp tag \(written) is not a valid timestamp and is ignored")
            }
            return
        }
        let time = collected.milliseconds
        if let context {
            if let last = lastTimestamp, time <= last {
                report(.warning, .vttTimestampTagOrder, at: tokenStart, "timestamp tag \(written) must come after the previous one in the cue")
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
        guard context != nil else { return }
        let location = locator.location(of: offset, in: input)
        diagnostics.append(Diagnostic(severity, code, at: location, message))
    }

    private mutating func reportReference(_ problem: CharacterReference.Problem, at offset: Int, end: Int) {
        guard context != nil else { return }
        let written = String(decoding: UnsafeRawBufferPointer(rebasing: input[offset..<min(end, input.count)]), as: UTF8.self)
        switch problem {
        case .missingSemicolon:
            report(.warning, .vttUnterminatedCharacterReference, at: offset, "character reference '\(written)' lacks its ';'")
        case .noDigits:
            report(.warning, .vttBadCharacterReference, at: offset, "'&#' starts a numeric character reference but no digits follow; it is read as text")
        case .invalidCodePoint(let value):
            report(.error, .vttBadCharacterReference, at: offset, "character reference '\(written)' names \(Self.hex(value)), which is not allowed; it is read as U+FFFD")
        case .controlCharacter(let value):
            report(.warning, .vttBadCharacterReference, at: offset, "character reference '\(written)' names the control or noncharacter \(Self.hex(value))")
        case .unknownName:
            report(.warning, .vttUnknownCharacterReference, at: offset, "unknown character reference; it is read as text (write '&amp;' for a literal '&')")
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
