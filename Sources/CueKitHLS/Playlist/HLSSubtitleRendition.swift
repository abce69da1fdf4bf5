/// A subtitle rendition as a multivariant playlist names it: one `EXT-X-MEDIA` line
/// (RFC 8216, section 4.3.4.1) of `TYPE=SUBTITLES`.
public struct HLSSubtitleRendition: Sendable, Hashable {
    /// The rendition group every variant names with `SUBTITLES=`. Default: `subs`.
    public var groupID: String
    /// The name shown to viewers.
    public var name: String
    /// The language (BCP 47), such as `en` or `fr-CA`.
    public var language: String
    /// True for the rendition a player picks without a viewer's choice (one per group).
    public var isDefault: Bool
    /// True when a player may pick it to match the viewer's language.
    public var autoselect: Bool
    /// The media playlist, relative to the multivariant playlist.
    public var uri: String

    /// A rendition; `name` defaults to the language.
    public init(
        groupID: String = "subs", name: String? = nil, language: String, isDefault: Bool = false, autoselect: Bool = true, uri: String
    ) {
        self.groupID = groupID
        self.name = name ?? language
        self.language = language
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.uri = uri
    }

    /// The `EXT-X-MEDIA` line, without its line end.
    public var mediaLine: String {
        "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\(Self.quoted(groupID)),NAME=\(Self.quoted(name)),LANGUAGE=\(Self.quoted(language)),"
            + "DEFAULT=\(isDefault ? "YES" : "NO"),AUTOSELECT=\(autoselect || isDefault ? "YES" : "NO"),URI=\(Self.quoted(uri))"
    }

    /// A quoted-string attribute value (section 4.2): no `"`, CR or LF inside.
    static func quoted(_ value: String) -> String {
        "\"" + String(value.filter { $0 != "\"" && $0 != "\r" && $0 != "\n" && $0 != "\r\n" }) + "\""
    }
}
