import CueKit

extension TextTrackStyle {
    /// The style as a web receiver page draws it, for the page's own style sheet: the `::cue`
    /// declarations a styled WebVTT file carries (colours, edge, scale, family, style), plus the
    /// caption window around each cue box, which WebVTT cannot carry but a page can.
    ///
    /// `video` is the selector of the video element (`video` by default). The window is drawn on
    /// Chromium's cue display box (`::-webkit-media-text-track-display`): `windowColor` as its
    /// background, and with `ROUNDED_CORNERS` a `windowRoundedCornerRadius` in pixels (8 when
    /// unset). `windowType: NONE`, or no window field, draws no window.
    public func receiverPageCSS(video: String = "video") -> String {
        let cue = cueStylesheet().declarations
        var css = ""
        if !cue.isEmpty {
            css += "\(video)::cue {\n"
            for declaration in cue { css += "  \(declaration.property): \(declaration.value);\n" }
            css += "}\n"
        }
        if let window = windowDeclarations, !window.isEmpty {
            css += "\(video)::-webkit-media-text-track-display {\n"
            for (property, value) in window { css += "  \(property): \(value);\n" }
            css += "}\n"
        }
        return css
    }

    /// The window's CSS declarations; nil when the style draws no window.
    var windowDeclarations: [(String, String)]? {
        let type = windowType ?? (windowColor != nil ? .normal : nil)
        guard let type, type != .none else { return nil }
        var declarations: [(String, String)] = []
        declarations.append(("background-color", (windowColor ?? CastColor(red: 0, green: 0, blue: 0, alpha: 0)).css))
        declarations.append(("padding", "0.2em 0.5em"))
        if type == .roundedCorners {
            let radius = windowRoundedCornerRadius.flatMap { TextTrackStyle.isDrawable(cornerRadius: $0) ? $0 : nil } ?? 8
            declarations.append(("border-radius", Self.formatPixels(radius)))
        } else {
            declarations.append(("border-radius", "0"))
        }
        return declarations
    }

    private static func formatPixels(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int(value))px" : "\(value)px"
    }
}
