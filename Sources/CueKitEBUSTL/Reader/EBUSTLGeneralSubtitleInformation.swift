import CueKit

/// What the reader takes from the GSI block (EBU Tech 3264 section 3.2): how to read the TTI blocks
/// that follow.
public struct EBUSTLGeneralSubtitleInformation: Sendable, Hashable {
    /// How the subtitles are shown (DSC).
    public enum DisplayStandard: Sendable, Hashable {
        /// Blank or unknown: read as open subtitles.
        case undefined
        /// `0`: open subtitling, rows counted by ``maximumRows``.
        case openSubtitling
        /// `1` or `2`: level-1 or level-2 teletext, 23 rows of 40 characters.
        case teletext
    }

    /// Code page number (CPN) of the GSI's own text fields (`850`).
    public var codePage: String
    /// Disk format code (DFC): `STL25.01`, `STL30.01`, `STL50.01`…
    public var diskFormatCode: String
    /// Frames per second of the timecodes, from the disk format code.
    public var frameRate: Int
    /// DSC.
    public var displayStandard: DisplayStandard
    /// Character code table of the text fields (CCT).
    public var characterTable: EBUSTLCharacterTable
    /// Language code (LC), two hexadecimal digits (Tech 3264 Appendix 3); its BCP 47 tag when known.
    public var languageCode: String
    /// The BCP 47 tag of ``languageCode``, when Appendix 3 names the language.
    public var language: String?
    /// Original programme title (OPT), as ASCII.
    public var programmeTitle: String
    /// Time code: start of programme (TCP), in milliseconds.
    public var startOfProgramme: Int
    /// Total number of TTI blocks (TNB) and of subtitles (TNS), as declared; nil when unreadable.
    public var declaredBlocks: Int?, declaredSubtitles: Int?
    /// Maximum number of displayable rows (MNR).
    public var maximumRows: Int?

    /// Reads a 1,024-byte GSI block; nil when its disk format code is not `STLnn.01`. Fields that
    /// cannot be read are given defaults and described in `problems`, each with its byte offset.
    public init?(_ block: UnsafeRawBufferPointer, problems: inout [(offset: Int, message: String)]) {
        guard block.count >= EBUSTL.gsiBlockSize else { return nil }
        func text(_ range: Range<Int>) -> String {
            String(decoding: block[range].map { $0 < 0x20 || $0 > 0x7E ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        }
        func trimmed(_ range: Range<Int>) -> String {
            var value = Substring(text(range))
            while value.last == " " { value.removeLast() }
            while value.first == " " { value.removeFirst() }
            return String(value)
        }
        diskFormatCode = text(3..<11)
        guard diskFormatCode.hasPrefix("STL"), diskFormatCode.hasSuffix(".01"), let rate = Int(diskFormatCode.dropFirst(3).prefix(2)) else {
            return nil
        }
        switch rate {
        case 25, 30, 50, 24: frameRate = rate
        case 23: frameRate = 24
        default:
            problems.append((3, "disk format code \(diskFormatCode) names no frame rate Tech 3264 knows; timecodes are read at 25 frames a second"))
            frameRate = 25
        }
        codePage = trimmed(0..<3)
        switch block[11] {
        case UInt8(ascii: "0"): displayStandard = .openSubtitling
        case UInt8(ascii: "1"), UInt8(ascii: "2"): displayStandard = .teletext
        default: displayStandard = .undefined
        }
        let table = trimmed(12..<14)
        if let known = EBUSTLCharacterTable(rawValue: table) {
            characterTable = known
        } else {
            problems.append((12, "character code table '\(table)' is not 00 to 04; the text is read as ISO 6937 (00)"))
            characterTable = .latin
        }
        languageCode = text(14..<16).uppercased()
        language = EBUSTLLanguages.tags[languageCode]
        programmeTitle = trimmed(16..<48)
        let timecode = text(256..<264)
        let digits = timecode.compactMap { $0.wholeNumberValue }
        if digits.count == 8, digits[2] < 6, digits[4] < 6, digits[6] * 10 + digits[7] < frameRate {
            let hours = digits[0] * 10 + digits[1]
            let minutes = digits[2] * 10 + digits[3]
            let seconds = digits[4] * 10 + digits[5]
            let frames = digits[6] * 10 + digits[7]
            startOfProgramme = ((hours * 60 + minutes) * 60 + seconds) * 1000 + (frames * 1000 + frameRate / 2) / frameRate
        } else {
            if timecode.contains(where: { $0 != " " }) {
                problems.append((256, "start of programme '\(timecode)' is not a timecode (HHMMSSFF); the programme starts at 00:00:00:00"))
            }
            startOfProgramme = 0
        }
        declaredBlocks = Int(trimmed(238..<243))
        declaredSubtitles = Int(trimmed(243..<248))
        maximumRows = Int(trimmed(253..<255)).flatMap { $0 > 0 && $0 <= 99 ? $0 : nil }
    }

    /// True for teletext subtitles.
    public var isTeletext: Bool { displayStandard == .teletext }

    /// The rows a vertical position counts: 23 for teletext, ``maximumRows`` (else 23) for open
    /// subtitles.
    public var rows: Int { isTeletext ? 23 : maximumRows ?? 23 }
}

/// Tech 3264 Appendix 3: the language codes, as BCP 47 tags.
enum EBUSTLLanguages {
    static let tags: [String: String] = [
        "01": "sq", "02": "br", "03": "ca", "04": "hr", "05": "cy", "06": "cs", "07": "da", "08": "de", "09": "en", "0A": "es", "0B": "eo",
        "0C": "et", "0D": "eu", "0E": "fo", "0F": "fr", "10": "fy", "11": "ga", "12": "gd", "13": "gl", "14": "is", "15": "it", "16": "se",
        "17": "la", "18": "lv", "19": "lb", "1A": "lt", "1B": "hu", "1C": "mt", "1D": "nl", "1E": "no", "1F": "oc", "20": "pl", "21": "pt",
        "22": "ro", "23": "rm", "24": "sr", "25": "sk", "26": "sl", "27": "fi", "28": "sv", "29": "tr", "2A": "nl", "2B": "wa", "45": "zu",
        "46": "vi", "47": "uz", "48": "ur", "49": "uk", "4A": "th", "4B": "te", "4C": "tt", "4D": "ta", "4E": "tg", "4F": "sw", "51": "so",
        "52": "si", "53": "sn", "54": "sh", "56": "ru", "57": "qu", "58": "ps", "59": "pa", "5A": "fa", "5C": "or", "5D": "ne", "5E": "nd",
        "5F": "mr", "60": "mo", "61": "ms", "62": "mg", "63": "mk", "64": "lo", "65": "ko", "66": "km", "67": "kk", "68": "kn", "69": "ja",
        "6A": "id", "6B": "hi", "6C": "he", "6D": "ha", "6E": "gn", "6F": "gu", "70": "el", "71": "ka", "72": "ff", "73": "prs", "74": "cv",
        "75": "zh", "76": "my", "77": "bg", "78": "bn", "79": "be", "7A": "bm", "7B": "az", "7C": "as", "7D": "hy", "7E": "ar", "7F": "am",
    ]
}
