import CueKit

// Attributes every element may carry: timing, `xml:space` and `region`, read with their
// diagnostics.

extension TTMLDocumentReader {
    /// Reads `begin`, `end`, `dur` and `timeContainer`; nil (after reporting) when a time cannot be
    /// read, in which case the element is not presented.
    mutating func readTiming(_ attributes: TTMLElementAttributes, _ location: SourceLocation, what: String) -> TTMLTiming? {
        var result = TTMLTiming()
        if let container = attributes.timeContainer {
            switch TTMLStyleValues.trimmed(Substring(container)) {
            case "seq": result.isSequence = true
            case "par": break
            default:
                report(.error, .ttmlBadAttribute, location, "timeContainer \(quoted(container)) is not par or seq; par is used")
            }
        }
        if let value = attributes.begin {
            guard let time = readTime(value, name: "begin", location, what: what) else { return nil }
            result.begin = time
        }
        if let value = attributes.end {
            guard let time = readTime(value, name: "end", location, what: what) else { return nil }
            result.end = time
        }
        if let value = attributes.duration {
            guard let time = readTime(value, name: "dur", location, what: what) else { return nil }
            result.duration = time
        }
        return result
    }

    /// One time expression; nil (after reporting) when it cannot be read.
    mutating func readTime(_ value: String, name: String, _ location: SourceLocation, what: String) -> TTMLTime? {
        var text = value
        // The form nearly every file writes (`HH:MM:SS.mmm`) is read straight from the string's
        // bytes; the general parser's result, with its reasons and warnings, is for the others.
        if let time = text.withUTF8({ TTMLTimeExpression.commonClockTime($0, timing) }) {
            return clockTimeFromOrigin(time, name: name)
        }
        let (result, trimmedWhiteSpace) = text.withUTF8 { bytes in
            var start = 0
            var end = bytes.count
            while start < end, TTMLStyleValues.isXMLWhiteSpace(bytes[start]) { start += 1 }
            while end > start, TTMLStyleValues.isXMLWhiteSpace(bytes[end - 1]) { end -= 1 }
            let trimmed = UnsafeBufferPointer(rebasing: bytes[start..<end])
            return (TTMLTimeExpression.parse(trimmed, parameters: timing), end - start != bytes.count && end > start)
        }
        if trimmedWhiteSpace {
            report(
                .warning, .ttmlTimeWhiteSpace, location,
                "\(name) \(quoted(value)) has white space around the time, which TTML does not allow; it was read without it")
        }
        switch result {
        case .success(let parsed):
            if let warning = parsed.warning {
                report(.warning, .ttmlBadTime, location, "\(name) \(quoted(value)) on \(what): \(warning)")
            }
            return clockTimeFromOrigin(parsed.time, name: name)
        case .failure(let failure):
            report(
                .error, .ttmlBadTime, location,
                "\(name) \(quoted(value)) on \(what) is not a TTML time expression: \(failure.reason); the \(what) and its content are not presented")
            return nil
        }
    }

    /// A `begin` or `end` in the clock time base counted from ``TTMLReader/Options/clockTimeOrigin``
    /// (not before zero); any other time as it is. (Mutating only so that the reader is passed by
    /// reference: a non-mutating call from a mutating one copied the whole reader.)
    private mutating func clockTimeFromOrigin(_ time: TTMLTime, name: String) -> TTMLTime {
        guard timing.timeBase == .clock, name != "dur", options.clockTimeOrigin != 0 else { return time }
        let shifted = time - TTMLTime(Int64(options.clockTimeOrigin), over: 1000)
        return shifted < .zero ? .zero : shifted
    }

    mutating func space(_ attributes: TTMLElementAttributes, inherited: Bool, _ location: SourceLocation) -> Bool {
        guard let value = attributes.space else { return inherited }
        switch value {
        case "preserve": return true
        case "default": return false
        default:
            report(.error, .ttmlBadAttribute, location, "xml:space \(quoted(value)) is not default or preserve; it is ignored")
            return inherited
        }
    }

    /// A `region` attribute's value when it names a region; nil (after reporting) otherwise.
    mutating func validatedRegion(_ identifier: String?, _ location: SourceLocation) -> String? {
        guard let identifier else { return nil }
        // Regions are only ever added: the last one found is found again without hashing (most
        // paragraphs name the region their neighbour named).
        if identifier == lastValidatedRegion { return identifier }
        // Asked by index: `regions[identifier] != nil` copied the region out to test it.
        if regions.index(forKey: identifier) != nil {
            lastValidatedRegion = identifier
            return identifier
        }
        let what = styles.isDefined(identifier) ? "a style, not a region" : "not defined"
        reportOnce("region-ref:" + identifier, .error, .ttmlUnknownRegion, location, "region \(quoted(identifier)) is \(what); the region attribute is ignored")
        return nil
    }
}
