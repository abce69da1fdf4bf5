import CueKit

/// Writes JSON straight into a byte buffer, flushed to a sink as it fills: no Foundation, no
/// intermediate objects, so `cuekit inspect --json` streams a file of any size.
///
/// Strings are escaped as ``JSONText`` escapes them; numbers are written as JavaScript writes them
/// (`Number.prototype.toString`, ``JSONText/javaScriptNumber(_:)``), so the output compares directly
/// with what a browser's script reads from `VTTCue`.
package struct JSONWriter<Sink: ByteSink> {
    package private(set) var sink: Sink
    private var buffer: [UInt8] = []

    package init(sink: Sink) {
        self.sink = sink
        buffer.reserveCapacity(1 << 16)
    }

    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    package mutating func string(_ value: String) {
        JSONText.appendString(value, to: &buffer)
    }

    package mutating func number(_ value: Double) {
        buffer.append(contentsOf: JSONText.javaScriptNumber(value).utf8)
    }

    package mutating func integer(_ value: Int) {
        buffer.append(contentsOf: String(value).utf8)
    }

    package mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// `"key":`
    package mutating func key(_ name: StaticString) {
        buffer.append(UInt8(ascii: "\""))
        raw(name)
        buffer.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// Hands the buffer to the sink once it holds a good amount.
    package mutating func flushIfFull() throws {
        if buffer.count >= 1 << 16 { try flush() }
    }

    package mutating func flush() throws {
        try sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
        try sink.flush()
    }
}

extension JSONWriter {
    /// `{"severity","code","line","column","message"}`: a diagnostic as `inspect --json` and
    /// `validate --format json` write it (`null` line and column when it has no location).
    package mutating func diagnostic(_ diagnostic: Diagnostic) {
        raw("{")
        key("severity")
        string(diagnostic.severity.rawValue)
        raw(",")
        key("code")
        string(diagnostic.code.rawValue)
        raw(",")
        key("line")
        if let location = diagnostic.location { integer(location.line) } else { raw("null") }
        raw(",")
        key("column")
        if let location = diagnostic.location { integer(location.column) } else { raw("null") }
        raw(",")
        key("message")
        string(diagnostic.message)
        raw("}")
    }
}
