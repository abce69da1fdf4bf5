// The cue text tokenizer (W3C WebVTT, section 6.4, "WebVTT cue text tokenizer"): the next token as
// ranges of the input, with character references decoded only where a token holds one.

extension CueTextParser {
    // MARK: Tokenizer

    mutating func nextToken() -> TokenKind {
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
                if decodesText, textIsDecoded { decodedText.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[position..<end])) }
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

    /// True when the annotation is empty once trimmed.
    var annotationIsEmpty: Bool {
        if annotationIsDecoded { return decodedAnnotation.allSatisfy(isASCIIWhitespace) }
        for index in annotationStart..<annotationEnd where !isASCIIWhitespace(input[index]) { return false }
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
