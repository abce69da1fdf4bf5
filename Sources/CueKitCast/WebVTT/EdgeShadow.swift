extension TextTrackStyle.EdgeType {
    /// The CSS `text-shadow` that draws this edge in `color`.
    ///
    /// Offsets are in `em`, so the edge grows with the text (with ``TextTrackStyle/fontScale`` and
    /// with the video's size, which sets a cue's font size in browsers). The light comes from the
    /// top left, as in every renderer of these edge types that models light: RAISED glyphs cast a
    /// hard, stepped shadow down and to the right (they stand out of the picture), DEPRESSED glyphs
    /// show a hard edge up and to the left (they are cut into it). This is the reading of Android's
    /// caption renderer (`SubtitlePainter`, and AndroidX Media3's canvas and WebView outputs) and of
    /// Chromium's Windows caption style; the presets of Chromium's caption settings page point the
    /// other way (its "raised" casts the shadow up-left) and are not followed. Cast's edge types are
    /// Android's `CaptionStyle` edge types, so Android's reading is the one Cast senders mean.
    ///
    /// | edge type | `text-shadow` (C = edge colour) |
    /// | --- | --- |
    /// | NONE | `none` |
    /// | OUTLINE | `C -0.05em -0.05em 0, C 0.05em -0.05em 0, C -0.05em 0.05em 0, C 0.05em 0.05em 0` |
    /// | DROP_SHADOW | `C 0.08em 0.08em 0.08em` |
    /// | RAISED | `C 0.03em 0.03em 0, C 0.06em 0.06em 0` |
    /// | DEPRESSED | `C -0.04em -0.04em 0` |
    public func textShadow(color: CastColor) -> String {
        let c = color.css
        switch self {
        case .none:
            return "none"
        case .outline:
            return "\(c) -0.05em -0.05em 0, \(c) 0.05em -0.05em 0, \(c) -0.05em 0.05em 0, \(c) 0.05em 0.05em 0"
        case .dropShadow:
            return "\(c) 0.08em 0.08em 0.08em"
        case .raised:
            return "\(c) 0.03em 0.03em 0, \(c) 0.06em 0.06em 0"
        case .depressed:
            return "\(c) -0.04em -0.04em 0"
        }
    }
}

extension TextTrackStyle.FontGenericFamily {
    /// The CSS font stack for this family: the font Android's caption settings use for it (what
    /// Android-based Cast receivers and Google TV devices have), common desktop equivalents, then
    /// the CSS generic family so that some font always matches.
    public var fontStack: String {
        switch self {
        case .sansSerif: "Roboto, \"Helvetica Neue\", Arial, sans-serif"
        case .monospacedSansSerif: "\"Droid Sans Mono\", \"DejaVu Sans Mono\", Consolas, monospace"
        case .serif: "\"Noto Serif\", Georgia, \"Times New Roman\", serif"
        case .monospacedSerif: "\"Cutive Mono\", \"Courier New\", Courier, monospace"
        case .casual: "\"Coming Soon\", \"Comic Sans MS\", \"Segoe Print\", cursive"
        case .cursive: "\"Dancing Script\", \"Segoe Script\", \"Brush Script MT\", cursive"
        case .smallCapitals: "\"Carrois Gothic SC\", Roboto, Arial, sans-serif"
        }
    }
}

extension TextTrackStyle.FontStyle {
    /// The CSS `font-weight` and `font-style` values.
    public var cssWeightAndStyle: (weight: String, style: String) {
        switch self {
        case .normal: ("normal", "normal")
        case .bold: ("bold", "normal")
        case .boldItalic: ("bold", "italic")
        case .italic: ("normal", "italic")
        }
    }
}
