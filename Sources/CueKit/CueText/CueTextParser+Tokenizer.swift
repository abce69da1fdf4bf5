// The cue text tokenizer (W3C WebVTT, section 6.4, "WebVTT cue text tokenizer"): the next token as
// ranges of the input, with character references decoded only where a token holds one.

extension CueTextParser {
    // MARK: Tokenizer

    /// The next token, from ``position``, which it moves past the token.
    ///
    /// The spec's tokenizer is a state machine over single characters; its states only ever move
    /// forward within a token (data; or tag, tag name, classes, annotation; or end tag; or
    /// timestamp tag), so each state here is a loop of its own over a local index, in that order,
    /// and a run of plain text or of a name costs a few instructions a byte.
    mutating func nextToken() -> TokenKind {
        let count = input.count
        var index = position
        tokenStart = index
        textStart = index
        textLength = 0
        textIsDecoded = false
        nameStart = index
        nameEnd = index
        if !classes.isEmpty { classes.removeAll(keepingCapacity: true) }
        annotationStart = index
        annotationEnd = index
        annotationIsDecoded = false
        terminated = true

        // Data state: a string token runs up to the next `<`, character references decoded.
        guard index < count, input[index] == lessThan else {
            while index < count {
                let c = input[index]
                if c == lessThan { break }
                if c == ampersand {
                    position = index
                    consumeReference(into: .text, additionalAllowed: nil)
                    index = position
                    continue
                }
                let end = Self.nextSpecial(in: input, from: index + 1)
                if decodesText, textIsDecoded { decodedText.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<end])) }
                textLength += end - index
                index = end
            }
            position = index
            return .string
        }

        // Tag state: the character after `<` says which tag it is.
        index += 1
        guard index < count else { return unterminated(.startTag, at: index) }
        var c = input[index]
        switch c {
        case UInt8(ascii: "/"):
            // End tag state: the name is everything up to `>`.
            nameStart = index + 1
            return tagEnd(.endTag, from: index + 1)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            // Timestamp tag state: the timestamp is everything up to `>`.
            nameStart = index
            return tagEnd(.timestamp, from: index + 1)
        case greaterThan:
            position = index + 1
            return .startTag
        case 0x09, 0x0A, 0x0C, 0x20, UInt8(ascii: "."):
            break
        default:
            // Start tag state: the name runs up to white space, `.` or `>`.
            nameStart = index
            index += 1
            while index < count {
                c = input[index]
                if c == 0x09 || c == 0x0A || c == 0x0C || c == 0x20 || c == UInt8(ascii: ".") || c == greaterThan { break }
                index += 1
            }
            nameEnd = index
            guard index < count else { return unterminated(.startTag, at: index) }
        }

        // Start tag class state: classes, each after a `.`.
        if c == UInt8(ascii: ".") {
            var classStart = index + 1
            index += 1
            while true {
                guard index < count else {
                    classes.append(classStart..<index)
                    return unterminated(.startTag, at: index)
                }
                c = input[index]
                if c == 0x09 || c == 0x0A || c == 0x0C || c == 0x20 {
                    classes.append(classStart..<index)
                    break
                }
                if c == UInt8(ascii: ".") {
                    classes.append(classStart..<index)
                    classStart = index + 1
                } else if c == greaterThan {
                    classes.append(classStart..<index)
                    position = index + 1
                    return .startTag
                }
                index += 1
            }
        }
        if c == greaterThan {
            position = index + 1
            return .startTag
        }

        // Start tag annotation state (after white space; after LF the spec starts the annotation
        // with that LF, which is trimmed away): up to `>`, character references decoded.
        index += 1
        annotationStart = index
        annotationEnd = index
        while index < count {
            c = input[index]
            if c == greaterThan {
                position = index + 1
                return .startTag
            }
            if c == ampersand {
                position = index
                consumeReference(into: .annotation, additionalAllowed: greaterThan)
                index = position
                continue
            }
            if annotationIsDecoded { decodedAnnotation.append(c) }
            index += 1
            annotationEnd = index
        }
        return unterminated(.startTag, at: index)
    }

    /// An end tag or timestamp tag whose name starts at `from`: it runs up to the next `>`.
    private mutating func tagEnd(_ kind: TokenKind, from: Int) -> TokenKind {
        let end = ByteScanning.firstIndex(of: greaterThan, in: input, from: from, to: input.count)
        nameEnd = end
        guard end < input.count else { return unterminated(kind, at: end) }
        position = end + 1
        return kind
    }

    /// A tag the input ends inside.
    private mutating func unterminated(_ kind: TokenKind, at end: Int) -> TokenKind {
        terminated = false
        position = end
        return kind
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

    enum ReferenceTarget { case text, annotation }

    /// The "HTML character reference in data state" and "in annotation state": `position` is at
    /// the `&`, and moves past what was consumed.
    mutating func consumeReference(into target: ReferenceTarget, additionalAllowed: UInt8?) {
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
                if decodesText, textIsDecoded { decodedText.append(ampersand) }
            case .annotation:
                if annotationIsDecoded { decodedAnnotation.append(ampersand) }
                annotationEnd = position
            }
            return
        }
        switch target {
        case .text:
            if decodesText {
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

    func append(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UTF8.encode(scalar)!)
    }

    /// The tag's annotation, trimmed and with runs of ASCII white space collapsed into single
    /// spaces, as the tokenizer returns it.
    func annotationBytes() -> [UInt8] {
        var result: [UInt8] = []
        appendAnnotation(to: &result)
        return result
    }

    /// Appends the annotation, trimmed and collapsed, to `result` (with no array of its own).
    func appendAnnotation(to result: inout [UInt8]) {
        let start = result.count
        var pendingSpace = false
        func take(_ byte: UInt8, _ result: inout [UInt8]) {
            if isASCIIWhitespace(byte) {
                pendingSpace = result.count > start
            } else {
                if pendingSpace {
                    result.append(0x20)
                    pendingSpace = false
                }
                result.append(byte)
            }
        }
        if annotationIsDecoded {
            for byte in decodedAnnotation { take(byte, &result) }
        } else {
            for index in annotationStart..<annotationEnd { take(input[index], &result) }
        }
    }

    /// True when the annotation is empty once trimmed. (A function of the stored parts, not of
    /// `self`: a getter on the parser called from a mutating method copies the whole parser.)
    static func isEmptyAnnotation(
        _ input: UnsafeRawBufferPointer, _ start: Int, _ end: Int, decoded: [UInt8], isDecoded: Bool
    ) -> Bool {
        if isDecoded { return decoded.allSatisfy(isASCIIWhitespace) }
        for index in start..<end where !isASCIIWhitespace(input[index]) { return false }
        return true
    }

    var nameBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: input[nameStart..<nameEnd]) }

    func string(_ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: input[from..<to]), as: UTF8.self)
    }
}

private let ampersand = UInt8(ascii: "&")
private let lessThan = UInt8(ascii: "<")
private let greaterThan = UInt8(ascii: ">")

@inline(__always)
private func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
}

/// An ASCII letter, either case (for tag names).
@inline(__always)
func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) &- UInt8(ascii: "a") < 26
}
