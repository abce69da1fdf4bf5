import CueKit

/// The diagnostic codes of Cast messages and of styled WebVTT, each with the rule it stands for.
extension DiagnosticCode {
    // JSON text.

    /// The text is not JSON (RFC 8259).
    public static let castJSONSyntax: DiagnosticCode = "cast-json-syntax"
    /// A document longer than the most checked as a Cast message.
    public static let castMessageTooLarge: DiagnosticCode = "cast-message-too-large"
    /// An object names the same member twice; a receiver keeps the last value.
    public static let castJSONDuplicateKey: DiagnosticCode = "cast-json-duplicate-key"

    // Fields, one at a time.

    /// A field holds the wrong JSON type (a string where a number belongs...).
    public static let castWrongType: DiagnosticCode = "cast-wrong-type"
    /// A field the receiver needs is absent.
    public static let castMissingField: DiagnosticCode = "cast-missing-field"
    /// A colour is not `#RRGGBBAA` or `#RRGGBB`.
    public static let castBadColor: DiagnosticCode = "cast-bad-color"
    /// An enumerated field holds a value Cast does not define.
    public static let castUnknownValue: DiagnosticCode = "cast-unknown-value"
    /// `fontScale` is not a positive number within ``TextTrackStyle/fontScaleRange``.
    public static let castBadFontScale: DiagnosticCode = "cast-bad-font-scale"
    /// `windowRoundedCornerRadius` is outside ``TextTrackStyle/cornerRadiusRange``.
    public static let castBadRadius: DiagnosticCode = "cast-bad-radius"
    /// An EDIT_TRACKS_INFO message carries `tracks`: the track list is fixed by the load.
    public static let castTracksNotEditable: DiagnosticCode = "cast-tracks-not-editable"
    /// A track identifier is not a whole number, or is negative.
    public static let castBadTrackID: DiagnosticCode = "cast-bad-track-id"
    /// A member CueKit does not model; it is kept and written back, but may be a misspelling.
    public static let castUnknownField: DiagnosticCode = "cast-unknown-field"
    /// The message's `type` is not one CueKit checks.
    public static let castUnknownMessageType: DiagnosticCode = "cast-unknown-message-type"

    // Rules across fields, as a receiver applies them.

    /// Two tracks of one media item share a `trackId`.
    public static let castDuplicateTrackID: DiagnosticCode = "cast-duplicate-track-id"
    /// A track's content type contradicts its type (an `audio/` type on a TEXT track...).
    public static let castContentTypeMismatch: DiagnosticCode = "cast-content-type-mismatch"
    /// A text track's format is not one Cast receivers render (WebVTT, TTML).
    public static let castUnsupportedTextFormat: DiagnosticCode = "cast-unsupported-text-format"
    /// A content type is absent where the receiver needs or expects one.
    public static let castMissingContentType: DiagnosticCode = "cast-missing-content-type"
    /// A SUBTITLES track has no `language`.
    public static let castMissingLanguage: DiagnosticCode = "cast-missing-language"
    /// A `language` is not a well-formed BCP 47 tag (RFC 5646, section 2.1).
    public static let castBadLanguage: DiagnosticCode = "cast-bad-language"
    /// A `subtype` on a track that is not TEXT.
    public static let castSubtypeNotText: DiagnosticCode = "cast-subtype-not-text"
    /// A media item has neither `contentId` nor `contentUrl`.
    public static let castMissingContent: DiagnosticCode = "cast-missing-content"
    /// A `duration` that cannot be (negative for buffered media...).
    public static let castBadDuration: DiagnosticCode = "cast-bad-duration"
    /// An active track identifier names no track of the media.
    public static let castUnknownActiveTrack: DiagnosticCode = "cast-unknown-active-track"
    /// An active track identifier is listed twice.
    public static let castDuplicateActiveTrack: DiagnosticCode = "cast-duplicate-active-track"
    /// A URL the receiver fetches is relative (it resolves against the receiver's page).
    public static let castRelativeURL: DiagnosticCode = "cast-relative-url"
    /// A URL the receiver fetches is `http:` (blocked as mixed content on an HTTPS receiver).
    public static let castInsecureURL: DiagnosticCode = "cast-insecure-url"
    /// A field that the receiver ignores because of another field (`edgeColor` with edge type NONE...).
    public static let castIgnoredField: DiagnosticCode = "cast-ignored-field"
    /// A track `name` is empty: sender menus show an empty entry.
    public static let castEmptyName: DiagnosticCode = "cast-empty-name"

    // Styled WebVTT.

    /// The window (`windowType`, `windowColor`, `windowRoundedCornerRadius`) has no `::cue` equivalent.
    public static let castWindowNotInWebVTT: DiagnosticCode = "cast-window-not-in-webvtt"
    /// An edge type without an edge colour: the shadow is drawn in opaque black.
    public static let castEdgeColorDefaulted: DiagnosticCode = "cast-edge-color-default"
    /// `customData` or an unknown style member is not written into the file.
    public static let castNotWritten: DiagnosticCode = "cast-not-written"
    /// The file's own style sheets use `!important`, which can override the applied style.
    public static let castFileImportant: DiagnosticCode = "cast-file-important"
    /// A rule of the file's own style sheets selects spans and sets a property the applied style
    /// sets: on that text, the file's value is drawn, as a receiver draws it.
    public static let castOverriddenByFile: DiagnosticCode = "cast-overridden-by-file"
}
