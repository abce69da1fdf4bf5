/// The words, names, colours and placements `cuekit generate` draws from: enough variety that a
/// parser meets what real tracks hold (accents, CJK, right-to-left scripts, emoji, speakers, ruby,
/// languages), stored as UTF-8 bytes so that drawing a word costs no allocation.
enum GeneratorVocabulary {
    /// A script a cue's text is written in, and how its words are joined.
    struct Script {
        var words: [[UInt8]]
        /// Words are separated by a space (false for Chinese and Japanese).
        var spaced: Bool
        /// The length of a line, in bytes, drawn from this range.
        var lineBytes: ClosedRange<Int>
    }

    static func bytes(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

    static let english = Script(
        words: bytes([
            "the", "you", "know", "what", "I", "think", "we", "should", "go", "now", "really", "never", "again", "this",
            "time", "just", "maybe", "tomorrow", "there", "here", "wait", "look", "listen", "sorry", "please", "thanks",
            "right", "okay", "come", "on", "don't", "can't", "where", "are", "is", "it", "that", "was", "he", "she", "they",
            "home", "night", "morning", "coffee", "train", "station", "door", "window", "money", "problem", "family",
            "music", "dinner", "light", "yes", "no", "why", "how", "little", "big", "old", "new", "hey", "hello", "Tom & Jerry",
            "fifty-five", "3 o'clock", "\"quote\"", "well,", "so...", "what?", "now!", "-- wait",
        ]),
        spaced: true, lineBytes: 26...44)

    static let accented = Script(
        words: bytes([
            "café", "déjà", "vu", "naïve", "où", "été", "très", "señor", "mañana", "niño", "año", "über", "schön",
            "Straße", "grüß", "Gott", "à", "bientôt", "façade", "crème", "brûlée", "élève", "garçon", "jalapeño",
            "Ångström", "smörgåsbord", "Zürich", "København", "Łódź", "Ærø", "quand", "pourquoi", "oui", "non", "bien",
        ]),
        spaced: true, lineBytes: 26...44)

    static let cjk = Script(
        words: bytes([
            "今日は", "いい天気", "ですね", "字幕", "日本語", "ありがとう", "行きましょう", "大丈夫", "本当に", "待って",
            "你好", "谢谢", "我们走吧", "没问题", "真的吗", "「はい」", "、", "。",
        ]),
        spaced: false, lineBytes: 21...39)

    static let korean = Script(
        words: bytes(["안녕하세요", "감사합니다", "괜찮아요", "어디", "가요", "지금", "정말", "네", "아니요"]),
        spaced: true, lineBytes: 20...38)

    static let arabic = Script(
        words: bytes(["مرحبا", "كيف", "حالك", "شكرا", "جزيلا", "نعم", "لا", "الآن", "غدا", "أين", "البيت", "؟"]),
        spaced: true, lineBytes: 20...38)

    static let hebrew = Script(
        words: bytes(["שלום", "מה", "נשמע", "תודה", "רבה", "כן", "לא", "עכשיו", "מחר", "איפה", "הבית", "?"]),
        spaced: true, lineBytes: 20...38)

    static let devanagari = Script(
        words: bytes(["नमस्ते", "धन्यवाद", "हाँ", "नहीं", "अभी", "कल", "कहाँ", "घर", "ठीक", "है", "क्या", "।"]),
        spaced: true, lineBytes: 24...48)

    /// Scripts by weight: mostly English, then accented Latin, CJK, Korean, Arabic, Hebrew.
    static let scripts: [(script: Script, weight: Int)] = [
        (english, 62), (accented, 14), (cjk, 10), (korean, 4), (arabic, 5), (hebrew, 5),
    ]

    static let emoji = bytes(["🎬", "🎵", "👍", "😂", "❤️", "🔥", "🙏", "👋🏽"])

    /// Speakers: WebVTT voices, TTML agents.
    static let speakers: [(name: String, id: String)] = [
        ("Alice", "alice"), ("Bob", "bob"), ("Dr. Chen", "chen"), ("María", "maria"), ("Jean-Luc", "jeanluc"), ("Yuki", "yuki"),
    ]

    /// Colours: a WebVTT class, a SubRip `<font color>`, a TTML style.
    static let colors: [(webVTTClasses: String, subRip: String, ttmlStyle: String)] = [
        ("yellow", "#ffff00", "yellow"), ("cyan", "#00ffff", "cyan"), ("lime", "#00ff00", "lime"),
        ("magenta.loud", "#ff00ff", "magenta"), ("whisper", "#c0c0c0", "whisper"),
    ]

    /// Words in another language: the BCP 47 tag and the text.
    static let languages: [(tag: String, text: [UInt8])] = [
        ("fr", Array("bonjour".utf8)), ("es", Array("¡hola!".utf8)), ("de", Array("danke schön".utf8)),
        ("ja", Array("ありがとう".utf8)), ("ar", Array("شكرا".utf8)),
    ]

    /// Ruby: a base and its reading.
    static let ruby: [(base: [UInt8], reading: [UInt8])] = [
        (Array("漢字".utf8), Array("かんじ".utf8)), (Array("東京".utf8), Array("とうきょう".utf8)),
        (Array("日本".utf8), Array("にほん".utf8)), (Array("字幕".utf8), Array("じまく".utf8)),
    ]

    /// NOTE comments (WebVTT) and XML comments (TTML) put between cues now and then.
    static let notes = bytes([
        "checked by QA", "reel 2 starts here", "TODO: confirm the spelling of the names", "music cue: opening theme",
    ])
}
