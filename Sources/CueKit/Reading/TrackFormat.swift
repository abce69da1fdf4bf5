/// The caption formats CueKit reads and writes, and how to tell them apart.
///
/// Pipelines get files with wrong or missing extensions (`.txt`, `.xml`, `.sub`, no extension at
/// all, standard input), so the format is told from the content first: the WebVTT signature
/// (W3C WebVTT section 4.1: an optional byte order mark, then `WEBVTT`), an XML document whose root
/// element is `tt` (TTML2 section 8.1.1) or that names a TTML namespace, the SubRip shape (a
/// sequence number line and a timing line), an ASS or SSA script's first section (`[Script Info]`),
/// a Scenarist SCC file's first line (`Scenarist_SCC V1.0`), or an EBU-STL file's disk format code (`STL25.01`, `STL30.01`, or the `STL50.01` found in the
/// field, at bytes 3 to 10 of its GSI block: EBU Tech 3264, section 3.2). The file extension, then the media type, are the
/// fallbacks. Byte order marks are understood, UTF-16 included, with or without a mark.
///
/// ```swift
/// let format = TrackFormat.detect(content: firstChunk, path: "episode-1.txt")  // .subRip
/// ```
public enum TrackFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// WebVTT (`.vtt`, `text/vtt`).
    case webVTT = "vtt"
    /// SubRip (`.srt`, `application/x-subrip`).
    case subRip = "srt"
    /// TTML in any of its profiles: TTML1/2, IMSC, DFXP, SMPTE-TT, EBU-TT-D (`.ttml`, `.dfxp`, `.xml`;
    /// `application/ttml+xml`).
    case ttml = "ttml"
    /// Advanced SubStation Alpha and SubStation Alpha (`.ass`, `.ssa`; `text/x-ssa`).
    case ass = "ass"
    /// EBU-STL, EBU Tech 3264's subtitling data exchange files (`.stl`; binary).
    case ebuSTL = "stl"
    /// Scenarist SCC, CEA-608 caption data (`.scc`).
    case scc = "scc"

    /// How many bytes of content ``detect(content:)`` looks at: callers pass at least this much of the
    /// start of a file (or the whole file, when it is shorter).
    public static let detectionLength = 4096

    /// The short name used on the command line (`--from vtt`): the raw value.
    public var name: String { rawValue }

    /// The format's name as people write it: `WebVTT`, `SubRip`, `TTML`.
    public var displayName: String {
        switch self {
        case .webVTT: "WebVTT"
        case .subRip: "SubRip"
        case .ttml: "TTML"
        case .ass: "ASS"
        case .ebuSTL: "EBU-STL"
        case .scc: "SCC"
        }
    }

    public var description: String { displayName }

    /// The format for a name given on a command line, in any case: `vtt`/`webvtt`, `srt`/`subrip`,
    /// `ttml`/`dfxp`/`imsc`/`xml`, `ass`/`ssa`, `stl`/`ebu-stl`, `scc`.
    public init?(name: String) {
        switch name.lowercased() {
        case "vtt", "webvtt": self = .webVTT
        case "srt", "subrip": self = .subRip
        case "ttml", "dfxp", "imsc", "xml", "ttml2", "smpte-tt", "ebu-tt-d": self = .ttml
        case "ass", "ssa", "substation": self = .ass
        case "stl", "ebu-stl", "ebustl": self = .ebuSTL
        case "scc", "scenarist", "cea-608", "608": self = .scc
        default: return nil
        }
    }

    /// The file extensions of the format, without the dot, the preferred one first.
    public var fileExtensions: [String] {
        switch self {
        case .webVTT: ["vtt", "webvtt"]
        case .subRip: ["srt"]
        case .ttml: ["ttml", "dfxp", "xml"]
        case .ass: ["ass", "ssa"]
        case .ebuSTL: ["stl"]
        case .scc: ["scc"]
        }
    }

    /// The extension written to when converting to the format.
    public var preferredFileExtension: String { fileExtensions[0] }

    /// The media types the format is served with, the registered or most common one first.
    public var mediaTypes: [String] {
        switch self {
        case .webVTT: ["text/vtt"]
        case .subRip: ["application/x-subrip", "text/srt", "application/srt"]
        case .ttml: ["application/ttml+xml", "application/xml", "text/xml"]
        case .ass: ["text/x-ssa", "text/x-ass", "application/x-ass"]
        case .ebuSTL: ["application/x-ebu-stl"]
        case .scc: ["text/x-scc", "application/x-scc"]
        }
    }

    /// The media type written with the format (`Content-Type`, Cast's `contentType`).
    public var mediaType: String { mediaTypes[0] }

    /// True for a binary format (EBU-STL), whose media type takes no `charset`.
    public var isBinary: Bool { self == .ebuSTL }

    /// True when CueKit writes the format (WebVTT, SubRip, TTML, SCC); the others are only read.
    public var isWritten: Bool {
        switch self {
        case .webVTT, .subRip, .ttml, .scc: true
        case .ass, .ebuSTL: false
        }
    }


    /// The format for a file extension, with or without its dot, in any case.
    public init?(fileExtension: String) {
        var value = fileExtension.lowercased()
        if value.hasPrefix(".") { value.removeFirst() }
        guard let format = Self.allCases.first(where: { $0.fileExtensions.contains(value) }) else { return nil }
        self = format
    }

    /// The format for a path's extension (`/a/b/episode.en.srt` is SubRip); nil without one.
    public init?(path: String) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(fileExtension: String(name[name.index(after: dot)...]))
    }

    /// The format for a media type; parameters (`; charset=utf-8`) are ignored.
    public init?(mediaType: String) {
        let essence = String(mediaType.split(separator: ";").first ?? "").filter { $0 != " " && $0 != "\t" }.lowercased()
        guard let format = Self.allCases.first(where: { $0.mediaTypes.contains(essence) }) else { return nil }
        self = format
    }

    /// ``detect(content:)`` on borrowed bytes, for readers that hold a chunk.
    package static func detect(content: UnsafeRawBufferPointer) -> TrackFormat? {
        // EBU-STL is binary: its GSI block is looked at before any decoding.
        if FormatSniffer.isEBUSTL(content) { return .ebuSTL }
        let text = FormatSniffer.asciiView(of: content.prefix(detectionLength))
        return FormatSniffer.detect(text)
    }

    /// The format the content is in, from its first bytes (up to ``detectionLength`` are looked at);
    /// nil when they match no format's signature.
    public static func detect(content: some Collection<UInt8>) -> TrackFormat? {
        let prefix = Array(content.prefix(detectionLength))
        return prefix.withUnsafeBytes { detect(content: $0) }
    }

    /// The format from the content, or else from the path's extension.
    public static func detect(content: some Collection<UInt8>, path: String?) -> TrackFormat? {
        detect(content: content) ?? path.flatMap { TrackFormat(path: $0) }
    }
}

/// The byte-level checks behind ``TrackFormat/detect(content:)``.
enum FormatSniffer {
    /// The first bytes as UTF-8, whatever their encoding (a byte order mark, or UTF-16's NUL bytes,
    /// tells it), so that the patterns below are matched on ASCII.
    static func asciiView(of bytes: UnsafeRawBufferPointer.SubSequence) -> [UInt8] {
        var transcoder = TextTranscoder(declared: nil)
        var text: [UInt8] = []
        func collect(_ output: TextTranscoder.Output) {
            if case .utf8(let bytes) = output { text.append(contentsOf: bytes) }
        }
        transcoder.decode(UnsafeRawBufferPointer(rebasing: bytes), emit: collect)
        transcoder.finish(emit: collect)
        return text
    }

    static func detect(_ text: [UInt8]) -> TrackFormat? {
        var index = 0
        while index < text.count, isWhiteSpace(text[index]) { index += 1 }
        if hasSignature(text, at: index) { return .webVTT }
        if index < text.count, text[index] == UInt8(ascii: "<") { return isTTML(text, from: index) ? .ttml : nil }
        if isSubRip(text) { return .subRip }
        if isASS(text, at: index) { return .ass }
        if text[index...].starts(with: "Scenarist_SCC".utf8) { return .scc }
        return nil
    }

    /// `[Script Info]`, in any case: the first section of an ASS or SSA script.
    private static func isASS(_ text: [UInt8], at index: Int) -> Bool {
        let header = Array("[script info]".utf8)
        guard text.count - index >= header.count else { return false }
        for (offset, expected) in header.enumerated() {
            let byte = text[index + offset]
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard lower == expected else { return false }
        }
        return true
    }

    /// The disk format code of an EBU-STL GSI block (Tech 3264, section 3.2: `STL25.01` or
    /// `STL30.01`, and `STL50.01` as some files have it) at bytes 3 to 10.
    static func isEBUSTL(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 11 else { return false }
        let code = Array(bytes[3..<11])
        return code == Array("STL25.01".utf8) || code == Array("STL30.01".utf8) || code == Array("STL50.01".utf8)
    }

    /// `WEBVTT` followed by white space or the end.
    private static func hasSignature(_ text: [UInt8], at index: Int) -> Bool {
        let signature = Array("WEBVTT".utf8)
        guard text.count >= index + signature.count, Array(text[index..<(index + signature.count)]) == signature else { return false }
        let after = index + signature.count
        return after == text.count || text[after] == 0x20 || text[after] == 0x09 || text[after] == 0x0A || text[after] == 0x0D
    }

    /// True when the first element is `tt` (in any namespace prefix), or, when the prolog is too
    /// long to see the root, when a TTML namespace is named.
    private static func isTTML(_ text: [UInt8], from start: Int) -> Bool {
        var index = start
        while index < text.count {
            while index < text.count, isWhiteSpace(text[index]) { index += 1 }
            guard index < text.count, text[index] == UInt8(ascii: "<") else { return false }
            if text[index...].starts(with: "<?".utf8) {
                guard let end = find("?>", in: text, from: index) else { break }
                index = end + 2
            } else if text[index...].starts(with: "<!--".utf8) {
                guard let end = find("-->", in: text, from: index + 4) else { break }
                index = end + 3
            } else if text[index...].starts(with: "<!".utf8) {
                // A DOCTYPE, perhaps with an internal subset in brackets.
                var cursor = index + 2
                var depth = 0
                while cursor < text.count, !(text[cursor] == UInt8(ascii: ">") && depth == 0) {
                    if text[cursor] == UInt8(ascii: "[") { depth += 1 }
                    if text[cursor] == UInt8(ascii: "]") { depth = max(0, depth - 1) }
                    cursor += 1
                }
                guard cursor < text.count else { break }
                index = cursor + 1
            } else {
                var cursor = index + 1
                while cursor < text.count, !isWhiteSpace(text[cursor]), text[cursor] != UInt8(ascii: ">"), text[cursor] != UInt8(ascii: "/")
                {
                    cursor += 1
                }
                let name = text[(index + 1)..<cursor]
                let localName = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
                if Array(localName) == Array("tt".utf8) { return true }
                return namesTTMLNamespace(text)
            }
        }
        return namesTTMLNamespace(text)
    }

    private static func namesTTMLNamespace(_ text: [UInt8]) -> Bool {
        ["http://www.w3.org/ns/ttml", "http://www.w3.org/2006/10/ttaf1", "http://www.w3.org/2006/04/ttaf1"].contains {
            find($0, in: text, from: 0) != nil
        }
    }

    /// Blank lines, then an optional line of digits, then a line that starts with a digit and holds
    /// `:` and then `-->`.
    private static func isSubRip(_ text: [UInt8]) -> Bool {
        var normalized: [UInt8] = []
        normalized.reserveCapacity(text.count)
        for (index, byte) in text.enumerated() where !(byte == 0x0D && index + 1 < text.count && text[index + 1] == 0x0A) {
            normalized.append(byte)
        }
        var lines = normalized.split(omittingEmptySubsequences: false) { $0 == 0x0A || $0 == 0x0D }.makeIterator()
        var line = lines.next()
        while let current = line, current.allSatisfy(isWhiteSpace) { line = lines.next() }
        guard var current = line else { return false }
        let trimmed = current.drop(while: isWhiteSpace).reversed().drop(while: isWhiteSpace)
        if !trimmed.isEmpty, trimmed.count <= 9, trimmed.allSatisfy(isDigit) {
            guard let next = lines.next() else { return false }
            current = next
        }
        var content = current.drop(while: isWhiteSpace)
        // A negative start time is still SubRip's shape (the reader says what is wrong with it).
        if content.first == UInt8(ascii: "-") { content = content.dropFirst() }
        guard let first = content.first, isDigit(first) else { return false }
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { return false }
        return find("-->", in: Array(content[colon...]), from: 0) != nil
    }

    private static func find(_ needle: String, in text: [UInt8], from start: Int) -> Int? {
        let needle = Array(needle.utf8)
        guard !needle.isEmpty, text.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= text.count {
            if text[index] == needle[0], Array(text[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
