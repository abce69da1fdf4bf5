import CCueKitBytes

/// A check of cue text in the shapes nearly every marked-up cue takes, without the tokenizer: for
/// the checker's hot path (``CueText/Checker``), where most cues have markup and none of it is
/// wrong.
///
/// The shapes: text; `&amp;`, `&lt;`, `&gt;`, `&nbsp;`, `&lrm;` and `&rlm;`; start tags `<i>`,
/// `<b>`, `<u>`, `<c>` and `<ruby>` with non-empty classes and no annotation, `<v>` with classes
/// and a speaker's name, `<lang>` with classes and a well-formed language tag (letters, digits and
/// hyphens), and `<rt>` right inside a `<ruby>`; end tags that close the innermost open span (and
/// `</ruby>` that closes an `<rt>` with its ruby), no ruby closed without ruby text; spans nested
/// at most ``maximumDepth`` deep, all closed by the end, except a `<v>` that opens the text (the
/// whole-cue voice WebVTT allows to stay open). ``isClean(_:)`` is true only for text made of those
/// alone, of which the parser reports nothing; anything else (timestamp tags, other references,
/// white space inside a tag, an unmatched end tag...) answers false, which means "ask the parser",
/// not "wrong". Tests hold the two to agreeing on random cue texts.
package enum CueTextQuickCheck {
    /// The deepest nesting looked at; deeper text goes to the parser.
    static let maximumDepth = 16

    /// The open spans' kinds, four bits each; a ruby is two kinds, before and after its ruby text.
    private enum Kind: UInt8 {
        case italic = 1, bold, underline, `class`, voice, language, rubyText, ruby, rubyWithText
    }

    /// True when `bytes` (valid UTF-8) is cue text the parser reports nothing about.
    package static func isClean(_ bytes: UnsafeRawBufferPointer) -> Bool {
        isClean(bytes) { _ in }
    }

    /// ``isClean(_:)`` for the text of a cue from `cueStart` to `cueEnd` (milliseconds), which
    /// also takes timestamp tags: each a valid timestamp after the one before it, after the cue's
    /// start and before its end, of which the parser reports nothing either.
    package static func isClean(_ bytes: UnsafeRawBufferPointer, cueStart: Int, cueEnd: Int) -> Bool {
        isClean(bytes, times: CueTimes(start: cueStart, end: cueEnd)) { _ in }
    }

    /// A cue's start and end, which its timestamp tags must lie between.
    struct CueTimes {
        var start: Int
        var end: Int
    }

    /// ``isClean(_:)``, handing `text` the text as it goes, in order, markup left out and
    /// references decoded: the text the parser's events hold, in pieces (a run of text, or one
    /// reference). For a consumer that needs only the text (`inspect --stats` counts it); when
    /// the answer is false, what was handed out is to be discarded.
    ///
    /// With `skipsTimestampTags`, a timestamp tag (`<` and a digit, up to the next `>`) is passed
    /// over as markup whatever its value: the parser reports a timestamp out of order, but its
    /// node holds no text either way, so the text handed out is still the parser's. The answer is
    /// then "the text is the parser's", not "the parser reports nothing".
    @inline(__always)
    package static func isClean(
        _ bytes: UnsafeRawBufferPointer, skipsTimestampTags: Bool = false, text: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Bool {
        isClean(bytes, skipsTimestampTags: skipsTimestampTags, times: nil, text: text)
    }

    /// ``isClean(_:skipsTimestampTags:text:)``; with `times`, timestamp tags are checked as
    /// ``isClean(_:cueStart:cueEnd:)`` checks them.
    @inline(__always)
    private static func isClean(
        _ bytes: UnsafeRawBufferPointer, skipsTimestampTags: Bool = false, times: CueTimes?, text: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        // Past this many bytes the parser's node limit could be reached.
        guard count < CueText.maximumNodes else { return false }
        guard count <= MarkMasks.capacity * 64 else {
            guard bytes.count < CueText.maximumNodes else { return false }
            var finder = ScanningFinder(bytes: bytes)
            return check(bytes, &finder, skipsTimestampTags: skipsTimestampTags, times: times, text: text)
        }
        // The usual cue text: its marks found in one vector pass, into words on the stack.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * MarkMasks.capacity) { words in
            let specials = words.baseAddress!, closers = specials + MarkMasks.capacity
            cuekit_markup_masks(base.assumingMemoryBound(to: UInt8.self), count, specials, closers)
            var finder = MarkMasks(specials: specials, closers: closers, count: count)
            return check(bytes, &finder, skipsTimestampTags: skipsTimestampTags, times: times, text: text)
        }
    }

    /// ``isClean(_:skipsTimestampTags:text:)`` with its marks found by scanning from each one to
    /// the next, as for texts longer than the masks on the stack hold (and for tests, which hold
    /// the two ways to the same answers).
    package static func isCleanByScanning(
        _ bytes: UnsafeRawBufferPointer, skipsTimestampTags: Bool = false, text: (UnsafeBufferPointer<UInt8>) -> Void = { _ in }
    ) -> Bool {
        guard bytes.baseAddress != nil else { return true }
        guard bytes.count < CueText.maximumNodes else { return false }
        var finder = ScanningFinder(bytes: bytes)
        return check(bytes, &finder, skipsTimestampTags: skipsTimestampTags, times: nil, text: text)
    }

    /// ``isClean(_:skipsTimestampTags:text:)`` over `bytes` (not empty, shorter than the node
    /// limit), finding its marks with `finder`.
    @inline(__always)
    private static func check<Finder: MarkFinder>(
        _ bytes: UnsafeRawBufferPointer, _ finder: inout Finder, skipsTimestampTags: Bool, times: CueTimes?,
        text: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Bool {
        let base = bytes.baseAddress!
        let count = bytes.count
        @inline(__always) func byte(_ index: Int) -> UInt8 { base.load(fromByteOffset: index, as: UInt8.self) }
        // The open spans, four bits each, innermost lowest.
        var open: UInt64 = 0
        var depth = 0
        // The outermost span is a <v> that opened the text.
        var voiceOpensText = false
        // The time of the last timestamp tag (with `times`).
        var lastTimestamp: Int?
        var index = 0
        let start = base.assumingMemoryBound(to: UInt8.self)
        while true {
            let special = finder.nextSpecial(from: index)
            if special > index { text(UnsafeBufferPointer(start: start + index, count: special - index)) }
            guard special < count else { break }
            if byte(special) == UInt8(ascii: "&") {
                guard let (end, decoded) = reference(bytes, at: special) else { return false }
                decoded.withUTF8Buffer { text($0) }
                index = end
                continue
            }
            let close = finder.nextClose(from: special + 1)
            guard close < count, close > special + 1 else { return false }
            if byte(special + 1) &- UInt8(ascii: "0") < 10 {
                if !skipsTimestampTags {
                    // The parser's checks of a timestamp tag (`CueTextParser.handleTimestamp`).
                    guard let times else { return false }
                    let value = UnsafeRawBufferPointer(rebasing: bytes[(special + 1)..<close])
                    var end = 0
                    guard case .success(let collected) = CueTimestamp.collect(from: value, at: &end), end == value.count,
                        collected.milliseconds > max(times.start, lastTimestamp ?? times.start), collected.milliseconds < times.end
                    else { return false }
                    lastTimestamp = collected.milliseconds
                }
                index = close + 1
                continue
            }
            if byte(special + 1) == UInt8(ascii: "/") {
                guard depth > 0, let kind = tagKind(bytes, from: special + 2, to: close) else { return false }
                switch (kind, Kind(rawValue: UInt8(open & 0xF))) {
                case (.ruby, .rubyWithText?):
                    break
                case (.ruby, .rubyText?):
                    // `</ruby>` closes the ruby text and its ruby (which has ruby text, then).
                    open >>= 4
                    depth -= 1
                case (let kind, let top?) where kind == top && kind != .ruby:
                    break
                default:
                    return false
                }
                open >>= 4
                depth -= 1
            } else {
                // The name: letters up to a `.` (classes), a space (a voice's name) or the `>`.
                var end = special + 1
                while end < close, isASCIILetter(byte(end)) { end += 1 }
                guard let kind = tagKind(bytes, from: special + 1, to: end), depth < maximumDepth else { return false }
                if kind == .rubyText {
                    // Ruby text only right inside a ruby, which then has some.
                    guard depth > 0, open & 0xF == UInt64(Kind.ruby.rawValue) || open & 0xF == UInt64(Kind.rubyWithText.rawValue) else {
                        return false
                    }
                    open = open & ~0xF | UInt64(Kind.rubyWithText.rawValue)
                }
                // Classes: each non-empty, of anything but white space and `.`.
                while end < close, byte(end) == UInt8(ascii: ".") {
                    end += 1
                    let classStart = end
                    while end < close, !isTagSeparator(byte(end)) { end += 1 }
                    guard end > classStart else { return false }
                }
                if kind == .voice {
                    // A space, then a name with something visible and no reference in it.
                    guard end < close, byte(end) == 0x20 else { return false }
                    var visible = false
                    for offset in (end + 1)..<close {
                        let c = byte(offset)
                        if c == UInt8(ascii: "&") { return false }
                        if !isASCIIWhitespace(c) { visible = true }
                    }
                    guard visible else { return false }
                    if depth == 0, special == 0 { voiceOpensText = true }
                } else if kind == .language {
                    // A space, then a well-formed language tag, of letters, digits and hyphens only.
                    guard end < close, byte(end) == 0x20, end + 1 < close else { return false }
                    for offset in (end + 1)..<close where !isLanguageTagByte(byte(offset)) { return false }
                    guard LanguageTag.isWellFormed(UnsafeRawBufferPointer(rebasing: bytes[(end + 1)..<close])) else { return false }
                } else {
                    guard end == close else { return false }
                }
                open = open << 4 | UInt64(kind.rawValue)
                depth += 1
            }
            if depth == 0 { voiceOpensText = false }
            index = close + 1
        }
        return depth == 0 || (depth == 1 && voiceOpensText)
    }

    /// Where the check's marks are: the next `<` or `&` (a tag or a reference starts), and the next
    /// `>` (a tag ends), at or after an offset; the text's length when there is none.
    private protocol MarkFinder {
        mutating func nextSpecial(from index: Int) -> Int
        mutating func nextClose(from index: Int) -> Int
    }

    /// The marks as bit masks, made by one vector pass over the text (`cuekit_markup_masks`): each
    /// next mark is a few instructions, where a scan looked at every byte between marks.
    private struct MarkMasks: MarkFinder {
        /// The words each mask holds on the stack: texts up to 64 times this many bytes.
        static let capacity = 16

        let specials: UnsafePointer<UInt64>
        let closers: UnsafePointer<UInt64>
        let count: Int

        @inline(__always)
        private func next(in words: UnsafePointer<UInt64>, from index: Int) -> Int {
            guard index < count else { return count }
            var word = index &>> 6
            var bits = words[word] & (~0 &<< UInt64(index & 63))
            let last = (count &- 1) &>> 6
            while bits == 0 {
                word &+= 1
                if word > last { return count }
                bits = words[word]
            }
            // No mark past `count`: the pass reads zeros after the text's last byte.
            return word &<< 6 &+ bits.trailingZeroBitCount
        }

        @inline(__always) func nextSpecial(from index: Int) -> Int { next(in: specials, from: index) }
        @inline(__always) func nextClose(from index: Int) -> Int { next(in: closers, from: index) }
    }

    /// The marks found by scanning from each offset asked: for texts too long for ``MarkMasks``.
    private struct ScanningFinder: MarkFinder {
        let bytes: UnsafeRawBufferPointer

        @inline(__always) func nextSpecial(from index: Int) -> Int { CueTextParser.nextSpecial(in: bytes, from: index) }

        @inline(__always)
        func nextClose(from index: Int) -> Int {
            ByteScanning.firstIndex(of: UInt8(ascii: ">"), in: bytes, from: min(index, bytes.count), to: bytes.count)
        }
    }

    /// One of the tags this check knows, named by `bytes[from..<to]`.
    @inline(__always)
    private static func tagKind(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Kind? {
        guard to == from + 1 else {
            let name = UnsafeRawBufferPointer(rebasing: bytes[from..<to])
            if ByteScanning.equals(name, "rt") { return .rubyText }
            if ByteScanning.equals(name, "ruby") { return .ruby }
            if ByteScanning.equals(name, "lang") { return .language }
            return nil
        }
        switch bytes[from] {
        case UInt8(ascii: "i"): return .italic
        case UInt8(ascii: "b"): return .bold
        case UInt8(ascii: "u"): return .underline
        case UInt8(ascii: "c"): return .class
        case UInt8(ascii: "v"): return .voice
        default: return nil
        }
    }

    /// A reference the check knows, when one starts at `at` (its `&`): where it ends, and the
    /// character it stands for.
    @inline(__always)
    private static func reference(_ bytes: UnsafeRawBufferPointer, at: Int) -> (end: Int, decoded: StaticString)? {
        let semicolon = ByteScanning.firstIndex(of: UInt8(ascii: ";"), in: bytes, from: at + 1, to: min(bytes.count, at + 6))
        guard semicolon < bytes.count, bytes[semicolon] == UInt8(ascii: ";") else { return nil }
        let name = UnsafeRawBufferPointer(rebasing: bytes[(at + 1)..<semicolon])
        let decoded: StaticString
        if ByteScanning.equals(name, "amp") {
            decoded = "&"
        } else if ByteScanning.equals(name, "lt") {
            decoded = "<"
        } else if ByteScanning.equals(name, "gt") {
            decoded = ">"
        } else if ByteScanning.equals(name, "nbsp") {
            decoded = "\u{A0}"
        } else if ByteScanning.equals(name, "lrm") {
            decoded = "\u{200E}"
        } else if ByteScanning.equals(name, "rlm") {
            decoded = "\u{200F}"
        } else {
            return nil
        }
        return (semicolon + 1, decoded)
    }

    @inline(__always)
    private static func isLanguageTagByte(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
    }

    @inline(__always)
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// White space or `.`: what ends a class name.
    @inline(__always)
    private static func isTagSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C
    }
}
