import CueKit

/// How a Cast receiver draws text tracks: colours, edge, font and window, field for field as Cast
/// sends it (`chrome.cast.media.TextTrackStyle`, `cast.framework.messages.TextTrackStyle`, Android
/// `TextTrackStyle`, iOS `GCKMediaTextTrackStyle`).
///
/// Every field is optional: an absent field means "the receiver chooses", which is not the same as
/// any value, so absent fields stay absent when the style is written back. Decoding checks each
/// field the way a receiver relies on it (colours, enumerated values, a positive finite scale, a
/// non-negative radius) and names the field in its error. Members CueKit does not know are kept in
/// ``otherFields`` and written back, so that a style from a newer SDK survives a round trip.
///
/// ``apply(to:)`` bakes the style into a WebVTT track as `::cue` CSS.
public struct TextTrackStyle: Sendable, Hashable {
    /// The text colour (`foregroundColor`).
    public var foregroundColor: CastColor?
    /// The colour behind the text (`backgroundColor`); its alpha makes it see-through.
    public var backgroundColor: CastColor?
    /// How glyph edges are drawn (`edgeType`).
    public var edgeType: EdgeType?
    /// The colour of the edge (`edgeColor`); ignored when the edge type is ``EdgeType/none``.
    public var edgeColor: CastColor?
    /// The text size as a factor of the receiver's default size (`fontScale`, 1 by default).
    /// Valid values are ``fontScaleRange``.
    public var fontScale: Double?
    /// A font family name (`fontFamily`); when the receiver lacks it, ``fontGenericFamily`` is used.
    public var fontFamily: String?
    /// The kind of font (`fontGenericFamily`).
    public var fontGenericFamily: FontGenericFamily?
    /// Weight and slant (`fontStyle`).
    public var fontStyle: FontStyle?
    /// The window around the cues, as in CEA-608/708 (`windowType`).
    public var windowType: WindowType?
    /// The window colour (`windowColor`); ignored when the window type is ``WindowType/none``.
    public var windowColor: CastColor?
    /// The window's corner radius in pixels (`windowRoundedCornerRadius`); used only with
    /// ``WindowType/roundedCorners``. Valid values are ``cornerRadiusRange``.
    public var windowRoundedCornerRadius: Double?
    /// Application data (`customData`), any JSON; `.null` when the sender wrote `null`.
    public var customData: CastJSONValue?
    /// Members CueKit does not model, in document order, written back unchanged.
    public var otherFields: CastJSONObject

    /// Creates a style; every field defaults to absent.
    public init(
        foregroundColor: CastColor? = nil,
        backgroundColor: CastColor? = nil,
        edgeType: EdgeType? = nil,
        edgeColor: CastColor? = nil,
        fontScale: Double? = nil,
        fontFamily: String? = nil,
        fontGenericFamily: FontGenericFamily? = nil,
        fontStyle: FontStyle? = nil,
        windowType: WindowType? = nil,
        windowColor: CastColor? = nil,
        windowRoundedCornerRadius: Double? = nil,
        customData: CastJSONValue? = nil,
        otherFields: CastJSONObject = CastJSONObject()
    ) {
        self.foregroundColor = foregroundColor
        self.backgroundColor = backgroundColor
        self.edgeType = edgeType
        self.edgeColor = edgeColor
        self.fontScale = fontScale
        self.fontFamily = fontFamily
        self.fontGenericFamily = fontGenericFamily
        self.fontStyle = fontStyle
        self.windowType = windowType
        self.windowColor = windowColor
        self.windowRoundedCornerRadius = windowRoundedCornerRadius
        self.customData = customData
        self.otherFields = otherFields
    }

    /// The font scales drawn: above 0, at most 100 (10,000% of the receiver's size). A larger
    /// finite number (`1e308`) would overflow the percentage CSS and TTML are written in.
    public static let fontScaleRange: ClosedRange<Double> = Double.leastNonzeroMagnitude...100

    /// The corner radii drawn, in pixels: 0 to 10,000, more than any screen is wide.
    public static let cornerRadiusRange: ClosedRange<Double> = 0...10_000

    /// Whether `scale` is a font scale a receiver can draw (``fontScaleRange``; not NaN).
    public static func isDrawable(fontScale scale: Double) -> Bool { fontScaleRange.contains(scale) }

    /// Whether `radius` is a corner radius a receiver can draw (``cornerRadiusRange``; not NaN).
    public static func isDrawable(cornerRadius radius: Double) -> Bool { cornerRadiusRange.contains(radius) }

    /// The style a sender starts from, as the SDKs create it: font scale 1 and every other field
    /// absent, so that the receiver applies its own defaults (or the viewer's caption settings).
    ///
    /// This is Android's `new TextTrackStyle()` (whose only predefined value is
    /// `DEFAULT_FONT_SCALE`, 1.0) and what iOS's `createDefault` returns on a device without
    /// caption preferences; reading the system's caption settings, as `fromSystemSettings` does, has
    /// no meaning off the device.
    public static func createDefault() -> TextTrackStyle {
        TextTrackStyle(fontScale: 1)
    }

    /// True when no field is set (the receiver chooses everything).
    public var isEmpty: Bool { self == TextTrackStyle() }

    /// `TextTrackEdgeType`: how the edges of glyphs are drawn.
    public enum EdgeType: String, CastEnumeration {
        /// No edge.
        case none = "NONE"
        /// A line around each glyph.
        case outline = "OUTLINE"
        /// A shadow below and to the right.
        case dropShadow = "DROP_SHADOW"
        /// Glyphs look embossed, lit from the top left.
        case raised = "RAISED"
        /// Glyphs look engraved, lit from the top left.
        case depressed = "DEPRESSED"

        /// The name of this type in the Cast reference.

        public static let castName = "TextTrackEdgeType"
    }

    /// `TextTrackFontGenericFamily`: the kind of font, used when ``fontFamily`` is absent or missing.
    public enum FontGenericFamily: String, CastEnumeration {
        /// Proportional, without serifs.
        case sansSerif = "SANS_SERIF"
        /// Fixed-width, without serifs.
        case monospacedSansSerif = "MONOSPACED_SANS_SERIF"
        /// Proportional, with serifs.
        case serif = "SERIF"
        /// Fixed-width, with serifs.
        case monospacedSerif = "MONOSPACED_SERIF"
        /// Informal, handwriting-like.
        case casual = "CASUAL"
        /// Joined script.
        case cursive = "CURSIVE"
        /// Small capital letters for lower case.
        case smallCapitals = "SMALL_CAPITALS"

        /// The name of this type in the Cast reference.

        public static let castName = "TextTrackFontGenericFamily"
    }

    /// `TextTrackFontStyle`: weight and slant.
    public enum FontStyle: String, CastEnumeration {
        /// Regular weight, upright.
        case normal = "NORMAL"
        /// Bold, upright.
        case bold = "BOLD"
        /// Bold and italic.
        case boldItalic = "BOLD_ITALIC"
        /// Regular weight, italic.
        case italic = "ITALIC"

        /// The name of this type in the Cast reference.

        public static let castName = "TextTrackFontStyle"
    }

    /// `TextTrackWindowType`: the box around the cues (CEA-608/708's window; WebVTT has none).
    public enum WindowType: String, CastEnumeration {
        /// No window.
        case none = "NONE"
        /// A rectangle.
        case normal = "NORMAL"
        /// A rectangle with rounded corners.
        case roundedCorners = "ROUNDED_CORNERS"

        /// The name of this type in the Cast reference.

        public static let castName = "TextTrackWindowType"
    }
}

extension TextTrackStyle: CastDecodable {
    /// The members Cast defines, in the order CueKit writes them: text, edge, font, window, data.
    static let fieldNames: [String] = [
        "foregroundColor", "backgroundColor", "edgeType", "edgeColor", "fontScale", "fontFamily",
        "fontGenericFamily", "fontStyle", "windowType", "windowColor", "windowRoundedCornerRadius", "customData",
    ]

    static func decode(_ json: CastJSONValue, at path: CastJSONPath, with decoder: inout CastDecoder) -> TextTrackStyle? {
        guard let object = decoder.object(json, at: path, of: "a TextTrackStyle") else { return nil }
        var style = TextTrackStyle()
        style.foregroundColor = decoder.color(object, "foregroundColor", at: path)
        style.backgroundColor = decoder.color(object, "backgroundColor", at: path)
        style.edgeType = decoder.enumeration(object, "edgeType", at: path, as: EdgeType.self)
        style.edgeColor = decoder.color(object, "edgeColor", at: path)
        if let scale = decoder.number(object, "fontScale", at: path) {
            if Self.isDrawable(fontScale: scale) {
                style.fontScale = scale
            } else {
                decoder.report(
                    .error, .castBadFontScale, at: path.appending("fontScale"),
                    "fontScale must be a positive number at most \(CastJSONValue.format(fontScaleRange.upperBound)) (1 is the receiver's default size), found \(CastJSONValue.format(scale))"
                )
            }
        }
        style.fontFamily = decoder.string(object, "fontFamily", at: path)
        style.fontGenericFamily = decoder.enumeration(object, "fontGenericFamily", at: path, as: FontGenericFamily.self)
        style.fontStyle = decoder.enumeration(object, "fontStyle", at: path, as: FontStyle.self)
        style.windowType = decoder.enumeration(object, "windowType", at: path, as: WindowType.self)
        style.windowColor = decoder.color(object, "windowColor", at: path)
        if let radius = decoder.number(object, "windowRoundedCornerRadius", at: path) {
            if Self.isDrawable(cornerRadius: radius) {
                style.windowRoundedCornerRadius = radius
            } else {
                decoder.report(
                    .error, .castBadRadius, at: path.appending("windowRoundedCornerRadius"),
                    "windowRoundedCornerRadius is a radius in pixels from 0 to \(CastJSONValue.format(cornerRadiusRange.upperBound)), found \(CastJSONValue.format(radius))"
                )
            }
        }
        style.customData = decoder.any(object, "customData")
        style.otherFields = decoder.otherFields(object, known: Set(fieldNames), at: path, in: "TextTrackStyle")
        return style
    }

    /// Reads a style from Cast JSON, checking every field; throws every problem found.
    public init(json: CastJSONValue) throws(CastDecodingError) {
        self = try Self.decodeStrictly(json, locations: CastJSONLocations())
    }

    /// Reads a style from a parsed document: problems point at their line and column.
    public init(document: CastJSONDocument) throws(CastDecodingError) {
        self = try Self.decodeStrictly(document.value, locations: document.locations)
    }

    /// Reads a style that sits at `path` in a document (`$.media.textTrackStyle` of a LOAD
    /// message): problems name their full path and, with the document's `locations`, their line and
    /// column.
    public init(json: CastJSONValue, at path: CastJSONPath, locations: CastJSONLocations = CastJSONLocations()) throws(CastDecodingError) {
        self = try Self.decodeStrictly(json, at: path, locations: locations)
    }

    /// The style as Cast JSON: set fields only, then ``otherFields``.
    public var json: CastJSONValue {
        var object = CastJSONObject()
        object["foregroundColor"] = foregroundColor.map { .string($0.hex) }
        object["backgroundColor"] = backgroundColor.map { .string($0.hex) }
        object["edgeType"] = edgeType.map { .string($0.rawValue) }
        object["edgeColor"] = edgeColor.map { .string($0.hex) }
        object["fontScale"] = fontScale.map { .number($0) }
        object["fontFamily"] = fontFamily.map { .string($0) }
        object["fontGenericFamily"] = fontGenericFamily.map { .string($0.rawValue) }
        object["fontStyle"] = fontStyle.map { .string($0.rawValue) }
        object["windowType"] = windowType.map { .string($0.rawValue) }
        object["windowColor"] = windowColor.map { .string($0.hex) }
        object["windowRoundedCornerRadius"] = windowRoundedCornerRadius.map { .number($0) }
        object["customData"] = customData
        for (key, value) in otherFields where object[key] == nil { object[key] = value }
        return .object(object)
    }
}

extension TextTrackStyle: Codable {
    /// Reads Cast JSON through any decoder, with the same checks as ``init(json:)``.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeThroughCodable(from: decoder)
    }

    /// Writes Cast JSON: set fields only.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}

extension CastDecodable {
    /// Decodes through `Codable`: the JSON value first, then CueKit's checks; problems become a
    /// `DecodingError.dataCorrupted` whose description lists them.
    static func decodeThroughCodable(from decoder: any Decoder) throws -> Self {
        let json = try CastJSONValue(from: decoder)
        do {
            return try decodeStrictly(json, locations: CastJSONLocations())
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error)
            )
        }
    }
}
