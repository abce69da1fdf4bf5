/// Reads a list of shot changes: one time a line, as seconds (`62.5`), `hh:mm:ss.mmm` (or
/// `mm:ss.mmm`), or an `hh:mm:ss:ff` timecode whose frames count at the rate's nominal value (24
/// for 23.976, as non-drop-frame timecode counts them). Empty lines and lines starting with `#`
/// are skipped.
public enum QCShotChanges {
    /// The shot changes in `text`, in milliseconds, sorted.
    public static func parse(_ text: String, frameRate: FrameRate = .film) throws(QCShotChangeError) -> [Int] {
        var times: [Int] = []
        // Lines end in LF or CR LF, which a `String` holds as one character.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = rawLine.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let time = time(of: line, frameRate: frameRate) else {
                throw QCShotChangeError(line: index + 1, text: String(line))
            }
            times.append(time)
        }
        return times.sorted()
    }

    /// The scene-detection threshold ``ffmpegArguments(media:)`` uses: a frame whose scene score
    /// (0 to 1, how much it differs from the one before) is over 0.4 starts a shot. ffmpeg's
    /// documentation suggests 0.3 to 0.5; 0.4 finds hard cuts without flagging fades and pans.
    public static let ffmpegSceneThreshold = 0.4

    /// The arguments that make `ffmpeg` print one `showinfo` line per shot change of `media`.
    public static func ffmpegArguments(media: String) -> [String] {
        ["-hide_banner", "-nostats", "-i", media, "-an", "-vf", "select='gt(scene,\(ffmpegSceneThreshold))',showinfo", "-f", "null", "-"]
    }

    /// The shot changes in the `showinfo` lines of ffmpeg's output (``ffmpegArguments(media:)``):
    /// each `pts_time:` value, in milliseconds, sorted.
    public static func parse(ffmpegShowinfo output: String) -> [Int] {
        var times: [Int] = []
        for line in output.split(separator: "\n") where line.contains("Parsed_showinfo") {
            guard let range = line.firstRange(of: "pts_time:") else { continue }
            let value = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
            if let time = seconds(value) { times.append(time) }
        }
        return times.sorted()
    }

    /// One line's time in milliseconds.
    static func time(of text: Substring, frameRate: FrameRate) -> Int? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        if fields.count == 1 { return seconds(fields[0]) }
        guard fields.allSatisfy({ !$0.isEmpty }) else { return nil }
        if fields.count == 4 {
            // hh:mm:ss:ff
            guard let hours = Int(fields[0]), let minutes = Int(fields[1]), let secs = Int(fields[2]), let frames = Int(fields[3]),
                hours >= 0, (0..<60).contains(minutes), (0..<60).contains(secs), frames >= 0, frames < frameRate.nominal
            else { return nil }
            let total = ((hours * 60 + minutes) * 60 + secs) * frameRate.nominal + frames
            return frameRate.start(of: total)
        }
        guard fields.count == 2 || fields.count == 3, let last = seconds(fields[fields.count - 1]), last < 60_000 else { return nil }
        var total = 0
        for field in fields.dropLast() {
            guard let value = Int(field), value >= 0 else { return nil }
            total = total * 60 + value
        }
        if fields.count == 3, let minutes = Int(fields[1]), minutes >= 60 { return nil }
        return total * 60_000 + last
    }

    /// `62.5` → 62,500 ms (up to three decimals, rounded beyond).
    private static func seconds(_ text: Substring) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int(parts[0]), whole >= 0, parts[0].allSatisfy(\.isASCII) else { return nil }
        var milliseconds = whole * 1000
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            let padded = (digits + "000").prefix(4)
            guard let value = Int(padded) else { return nil }
            milliseconds += (value + 5) / 10
        }
        return milliseconds
    }
}

/// A shot-change list line that is not a time.
public struct QCShotChangeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// Its text.
    public var text: String

    public init(line: Int, text: String) {
        self.line = line
        self.text = text
    }

    public var description: String {
        "line \(line): '\(text)' is not a time (seconds, hh:mm:ss.mmm or hh:mm:ss:ff)"
    }
}

extension Substring {
    var trimmingWhitespace: Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
