import CueKit
import CueKitConversion

/// Adds subtitle renditions to a multivariant playlist (RFC 8216, section 4.3.4), keeping every
/// other byte of it: an `EXT-X-MEDIA` line per rendition (replacing the one of the same group and
/// language, or added after the last `EXT-X-MEDIA` line, else before the first variant), and
/// `SUBTITLES="group"` on every `EXT-X-STREAM-INF` (set, or replaced), since a variant that does not
/// name the group plays without subtitles.
///
/// Only one rendition of a group may be the default (section 4.3.4.1.1): when the playlist already
/// has a default in the group that is not replaced, the added ones are not defaults.
public enum HLSMultivariantPlaylist {
    /// `text` with `renditions` added. Throws a `ReadError` located in the playlist when it is not a
    /// multivariant playlist (no `#EXTM3U` first, or no `EXT-X-STREAM-INF`).
    public static func adding(_ renditions: [HLSSubtitleRendition], to text: String) throws -> String {
        var lines = splitLines(text)
        guard let first = lines.first, first.content.hasPrefix("#EXTM3U") else {
            throw ReadError(.hlsNotMultivariantPlaylist, at: .start, "a playlist starts with #EXTM3U")
        }
        guard lines.contains(where: { $0.content.hasPrefix("#EXT-X-STREAM-INF:") }) else {
            throw ReadError(
                .hlsNotMultivariantPlaylist, at: .start, "the playlist has no #EXT-X-STREAM-INF line: it is not a multivariant playlist")
        }
        guard !renditions.isEmpty else { return text }
        let lineEnd = lines.first { !$0.end.isEmpty }?.end ?? "\n"
        var renditions = renditions
        func replaced(_ attributes: HLSAttributeList) -> Int? {
            guard attributes["TYPE"] == "SUBTITLES" else { return nil }
            return renditions.firstIndex { $0.groupID == attributes.string("GROUP-ID") && $0.language == attributes.string("LANGUAGE") }
        }
        // A default of the group that stays makes the added renditions not defaults.
        let keepsDefault = lines.contains { line in
            guard line.content.hasPrefix("#EXT-X-MEDIA:") else { return false }
            let attributes = HLSAttributeList(line.content.dropFirst(13))
            return replaced(attributes) == nil && attributes["TYPE"] == "SUBTITLES" && attributes["DEFAULT"] == "YES"
                && renditions.contains { $0.groupID == attributes.string("GROUP-ID") }
        }
        if keepsDefault { for index in renditions.indices { renditions[index].isDefault = false } }
        var placed = Set<Int>()
        var lastMedia: Int?
        var firstVariant: Int?
        for index in lines.indices {
            let content = lines[index].content
            if content.hasPrefix("#EXT-X-MEDIA:") {
                lastMedia = index
                if let rendition = replaced(HLSAttributeList(content.dropFirst(13))) {
                    lines[index].content = renditions[rendition].mediaLine
                    placed.insert(rendition)
                }
            } else if content.hasPrefix("#EXT-X-STREAM-INF:") {
                if firstVariant == nil { firstVariant = index }
                var attributes = HLSAttributeList(content.dropFirst(18))
                let groups = Set(renditions.map(\.groupID))
                attributes.set("SUBTITLES", to: HLSSubtitleRendition.quoted(groups.count == 1 ? groups.first! : renditions[0].groupID))
                lines[index].content = "#EXT-X-STREAM-INF:" + attributes.text
            }
        }
        let added = renditions.indices.filter { !placed.contains($0) }.map { Line(content: renditions[$0].mediaLine, end: lineEnd) }
        if !added.isEmpty {
            let at = lastMedia.map { $0 + 1 } ?? firstVariant!
            if lines[at - 1].end.isEmpty { lines[at - 1].end = lineEnd }
            lines.insert(contentsOf: added, at: at)
        }
        return lines.map { $0.content + $0.end }.joined()
    }

    /// Adds `renditions` to the playlist file at `path`, replaced atomically (`AtomicFileSink`).
    public static func update(fileAtPath path: String, adding renditions: [HLSSubtitleRendition]) throws {
        let text = String(decoding: try FileByteSource(path: path).readAll(), as: UTF8.self)
        let updated: String
        do {
            updated = try adding(renditions, to: text)
        } catch let error as ReadError {
            throw error.inFile(path)
        }
        let sink = try AtomicFileSink(path: path)
        try sink.write(updated)
        try sink.commit()
    }

    /// One line and the bytes that end it (empty for a last line without one).
    struct Line {
        var content: String
        var end: String
    }

    static func splitLines(_ text: String) -> [Line] {
        var lines: [Line] = []
        var current = ""
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = iterator.next()
        while let scalar = pending {
            pending = iterator.next()
            switch scalar {
            case "\n":
                lines.append(Line(content: current, end: "\n"))
                current = ""
            case "\r":
                if pending == "\n" {
                    pending = iterator.next()
                    lines.append(Line(content: current, end: "\r\n"))
                } else {
                    lines.append(Line(content: current, end: "\r"))
                }
                current = ""
            default:
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { lines.append(Line(content: current, end: "")) }
        return lines
    }
}

extension DiagnosticCode {
    /// A file given as a multivariant playlist that is not one.
    public static let hlsNotMultivariantPlaylist: DiagnosticCode = "hls-not-multivariant-playlist"
}
