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
    public static func nodes(fromUTF8 bytes: some Collection<UInt8>) -> [CueNode] {
        withBorrowedBytes(bytes) { nodes(fromUTF8: $0) }
    }

    /// ``nodes(fromUTF8:)`` on borrowed bytes.
    package static func nodes(fromUTF8 bytes: UnsafeRawBufferPointer) -> [CueNode] {
        var parser = CueTextParser(bytes, buildsTree: true, context: nil)
        return parser.run()
    }

    /// Checks cue text without building its tree: the diagnostics of
    /// ``nodes(from:context:diagnostics:)`` at a fraction of the cost.
    public static func diagnostics(forUTF8 bytes: some Collection<UInt8>, context: Context) -> [Diagnostic] {
        var checker = Checker()
        return checker.diagnostics(forUTF8: bytes, context: context)
    }

    /// `body` on the bytes in contiguous memory: their own storage when they have one, else a copy.
    static func withBorrowedBytes<Result>(_ bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = bytes.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(bytes).withUnsafeBytes(body)
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
        public mutating func diagnostics(forUTF8 bytes: some Collection<UInt8>, context: Context) -> [Diagnostic] {
            CueText.withBorrowedBytes(bytes) { diagnostics(forUTF8: $0, context: context) }
        }

        /// ``diagnostics(forUTF8:context:)`` on borrowed bytes.
        ///
        /// Text without `<` or `&` is one text node, which no rule can fault: one scan for either
        /// byte answers. Markup in the shapes nearly every cue has is answered by
        /// ``CueTextQuickCheck``; the parser runs only for the rest.
        package mutating func diagnostics(forUTF8 bytes: UnsafeRawBufferPointer, context: Context) -> [Diagnostic] {
            if CueTextParser.nextSpecial(in: bytes, from: 0) == bytes.count { return [] }
            return diagnostics(forMarkedUpUTF8: bytes, context: context)
        }

        /// ``diagnostics(forUTF8:context:)`` for text likely to hold markup (the WebVTT reader's
        /// block scan found `<` or `&` in its block, or did not look): the separate look for
        /// either byte is skipped, since the quick check finds plain text clean in its own scan.
        package mutating func diagnostics(forMarkedUpUTF8 bytes: UnsafeRawBufferPointer, context: Context) -> [Diagnostic] {
            if CueTextQuickCheck.isClean(bytes) { return [] }
            return diagnosticsByParsing(bytes, context: context)
        }

        /// ``diagnostics(forUTF8:context:)``, and, when the text has markup, its events left in
        /// `cache`: returns true when they were, and the cache is then to be given the text
        /// (``CueTextParseCache/fill(with:)``) once the caller has made it.
        package mutating func diagnostics(
            forUTF8 bytes: UnsafeRawBufferPointer, context: Context, sharingEventsWith cache: CueTextParseCache, diagnostics: inout [Diagnostic]
        ) -> Bool {
            if CueTextParser.nextSpecial(in: bytes, from: 0) == bytes.count {
                diagnostics = []
                return false
            }
            cache.startFilling()
            diagnostics = self.diagnostics(forUTF8: bytes, context: context, recordingInto: &cache.parsed)
            return true
        }

        /// ``diagnostics(forUTF8:context:)``, recording the text's events into `parsed` as the
        /// parser meets them (the events ``CueTextEvents`` gives for the same text), for a reader
        /// whose consumer needs them (see ``CueTextParseCache``).
        package mutating func diagnostics(
            forUTF8 bytes: UnsafeRawBufferPointer, context: Context, recordingInto parsed: inout CueTextEvents.Parsed
        ) -> [Diagnostic] {
            parsed.removeAll()
            swap(&parsed, &parser.recorded)
            parser.reset(bytes, buildsTree: false, context: context)
            parser.recordsEvents = true
            _ = parser.run()
            swap(&parsed, &parser.recorded)
            return parser.takeDiagnostics()
        }

        /// The diagnostics from a full run of the parser, whatever the text: the general path that
        /// the scan above must agree with.
        package mutating func diagnosticsByParsing(_ bytes: UnsafeRawBufferPointer, context: Context) -> [Diagnostic] {
            parser.reset(bytes, buildsTree: false, context: context)
            _ = parser.run()
            return parser.takeDiagnostics()
        }
    }
}
