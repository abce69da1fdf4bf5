import ArgumentParser
import CueKit
import CueKitCast

/// The options that describe a Cast `TextTrackStyle`: a flag per field, or a JSON file whose fields
/// the flags override.
///
/// A reusable group (`@OptionGroup var style: StyleOptions`): `cuekit style`, `cuekit cast media`
/// and `cuekit convert` take the same flags. Values are checked as they are parsed, so a bad colour
/// or an unknown edge type is a usage error (exit 2) that names the flag.
package struct StyleOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("style"),
        help: ArgumentHelp(
            "A TextTrackStyle in Cast JSON (or a LOAD, EDIT_TRACKS_INFO or media information message holding one); flags override its fields.",
            valueName: "style.json"
        )
    )
    package var styleFile: String?

    @Option(help: ArgumentHelp("Text colour: #RRGGBBAA (alpha last) or #RRGGBB.", valueName: "colour"), transform: StyleOptions.color)
    package var foreground: CastColor?

    @Option(help: ArgumentHelp("Colour behind the text: #RRGGBBAA or #RRGGBB.", valueName: "colour"), transform: StyleOptions.color)
    package var background: CastColor?

    @Option(
        help: ArgumentHelp("Edge of the glyphs: none, outline, drop-shadow, raised or depressed.", valueName: "type"),
        transform: { try StyleOptions.value($0, of: TextTrackStyle.EdgeType.self) }
    )
    package var edgeType: TextTrackStyle.EdgeType?

    @Option(
        help: ArgumentHelp("Colour of the edge (opaque black when absent): #RRGGBBAA or #RRGGBB.", valueName: "colour"),
        transform: StyleOptions.color)
    package var edgeColor: CastColor?

    @Option(
        help: ArgumentHelp("Text size as a factor of the receiver's caption size (1.5 is 150%).", valueName: "factor"),
        transform: StyleOptions.scale)
    package var fontScale: Double?

    @Option(help: ArgumentHelp("Font family name; the generic family is the fallback.", valueName: "name"))
    package var fontFamily: String?

    @Option(
        help: ArgumentHelp(
            "Kind of font: sans-serif, monospaced-sans-serif, serif, monospaced-serif, casual, cursive or small-capitals.",
            valueName: "family"
        ),
        transform: { try StyleOptions.value($0, of: TextTrackStyle.FontGenericFamily.self) }
    )
    package var fontGenericFamily: TextTrackStyle.FontGenericFamily?

    @Option(
        help: ArgumentHelp("Weight and slant: normal, bold, bold-italic or italic.", valueName: "style"),
        transform: { try StyleOptions.value($0, of: TextTrackStyle.FontStyle.self) }
    )
    package var fontStyle: TextTrackStyle.FontStyle?

    @Option(
        help: ArgumentHelp("Colour of the caption window: #RRGGBBAA or #RRGGBB (not expressible in WebVTT).", valueName: "colour"),
        transform: StyleOptions.color)
    package var windowColor: CastColor?

    @Option(
        help: ArgumentHelp("Caption window: none, normal or rounded-corners (not expressible in WebVTT).", valueName: "type"),
        transform: { try StyleOptions.value($0, of: TextTrackStyle.WindowType.self) }
    )
    package var windowType: TextTrackStyle.WindowType?

    @Option(help: ArgumentHelp("Corner radius of a rounded window, in pixels.", valueName: "pixels"), transform: StyleOptions.radius)
    package var windowCornerRadius: Double?

    /// True when no style option was given.
    package var isEmpty: Bool {
        styleFile == nil && foreground == nil && background == nil && edgeType == nil && edgeColor == nil && fontScale == nil
            && fontFamily == nil && fontGenericFamily == nil && fontStyle == nil && windowColor == nil && windowType == nil
            && windowCornerRadius == nil
    }

    /// A style read from the options: the JSON file's, with the flags' fields over it; nil when no
    /// option was given.
    ///
    /// Throws a ``CommandFailure``: status 1 when the JSON file is not a valid style (its
    /// diagnostics are printed first), 2 when it cannot be read.
    package func resolve() throws -> ResolvedStyle? {
        guard !isEmpty else { return nil }
        var resolved = ResolvedStyle(style: TextTrackStyle(), path: .root, locations: CastJSONLocations(), file: styleFile)
        if let styleFile {
            resolved = try Self.read(styleFile)
        }
        var style = resolved.style
        func flag<Value>(_ value: Value?, _ field: String, _ name: String, _ set: (inout TextTrackStyle, Value) -> Void) {
            guard let value else { return }
            set(&style, value)
            resolved.flags[field] = name
        }
        flag(foreground, "foregroundColor", "--foreground") { $0.foregroundColor = $1 }
        flag(background, "backgroundColor", "--background") { $0.backgroundColor = $1 }
        flag(edgeType, "edgeType", "--edge-type") { $0.edgeType = $1 }
        flag(edgeColor, "edgeColor", "--edge-color") { $0.edgeColor = $1 }
        flag(fontScale, "fontScale", "--font-scale") { $0.fontScale = $1 }
        flag(fontFamily, "fontFamily", "--font-family") { $0.fontFamily = $1 }
        flag(fontGenericFamily, "fontGenericFamily", "--font-generic-family") { $0.fontGenericFamily = $1 }
        flag(fontStyle, "fontStyle", "--font-style") { $0.fontStyle = $1 }
        flag(windowColor, "windowColor", "--window-color") { $0.windowColor = $1 }
        flag(windowType, "windowType", "--window-type") { $0.windowType = $1 }
        flag(windowCornerRadius, "windowRoundedCornerRadius", "--window-corner-radius") { $0.windowRoundedCornerRadius = $1 }
        resolved.style = style
        return resolved
    }

    /// A style and where it came from, so that its diagnostics point into its file.
    package struct ResolvedStyle {
        package var style: TextTrackStyle
        /// The style's path in its JSON file (`$.media.textTrackStyle` in a LOAD message).
        package var path: CastJSONPath
        package var locations: CastJSONLocations
        /// The JSON file, when the style came from one.
        package var file: String?
        /// The flag that set each field given on the command line (`edgeType`: `--edge-type`).
        package var flags: [String: String] = [:]

        package init(style: TextTrackStyle, path: CastJSONPath, locations: CastJSONLocations, file: String?) {
            self.style = style
            self.path = path
            self.locations = locations
            self.file = file
        }

        /// Prints diagnostics about the style, each naming where it came from: the flag that set
        /// the field it is about (`--edge-type: note: …`), else the JSON file and the line in it.
        package func report(_ diagnostics: [Diagnostic]) {
            for diagnostic in diagnostics { StandardError.write(formatted(diagnostic) + "\n") }
        }

        /// One diagnostic as ``report(_:)`` prints it.
        package func formatted(_ diagnostic: Diagnostic) -> String {
            for (field, flag) in flags {
                let prefix = "\(path.appending(field)): "
                guard diagnostic.message.hasPrefix(prefix) else { continue }
                var fromFlag = diagnostic
                fromFlag.location = nil
                fromFlag.message.removeFirst(prefix.count)
                return fromFlag.formatted(file: flag)
            }
            return diagnostic.formatted(file: file ?? Self.flagsName)
        }

        /// What a diagnostic about the style as a whole names when only flags gave it.
        static let flagsName = "style options"
    }

    /// Reads a style from a JSON file: a bare style, or the `textTrackStyle` of a message.
    package static func read(_ path: String) throws -> ResolvedStyle {
        let bytes: [UInt8]
        do {
            bytes = try FileByteSource(path: path).readAll()
        } catch let error as ReadError {
            throw CommandFailure(error.diagnostic.message)
        }
        let document: CastJSONDocument
        do {
            document = try CastJSONDocument(parsing: bytes)
        } catch {
            StandardError.write(error.diagnostic.formatted(file: path) + "\n")
            throw CommandFailure("\(path) is not JSON", status: .invalidInput)
        }
        let kind = CastMessage.kind(of: document.value)
        let stylePath: CastJSONPath
        switch kind {
        case .style?: stylePath = .root
        case .load?: stylePath = CastJSONPath.root.appending("media").appending("textTrackStyle")
        case .media?, .editTracksInfo?: stylePath = CastJSONPath.root.appending("textTrackStyle")
        case .mediaStatus?:
            stylePath = CastJSONPath.root.appending("status").appending(index: 0).appending("media").appending("textTrackStyle")
        case nil: throw CommandFailure("\(path) is not a TextTrackStyle or a message that holds one", status: .invalidInput)
        }
        guard let value = document.value.value(at: stylePath), value != .null else {
            throw CommandFailure("\(path) has no textTrackStyle (at \(stylePath))", status: .invalidInput)
        }
        do {
            let style = try TextTrackStyle(json: value, at: stylePath, locations: document.locations)
            return ResolvedStyle(style: style, path: stylePath, locations: document.locations, file: path)
        } catch {
            for diagnostic in error.diagnostics { StandardError.write(diagnostic.formatted(file: path) + "\n") }
            throw CommandFailure("\(path) is not a valid TextTrackStyle", status: .invalidInput)
        }
    }

    // Parsing of flag values; a thrown ValidationError names the flag and exits 2.

    @Sendable static func color(_ text: String) throws -> CastColor {
        do {
            return try CastColor(parsing: text)
        } catch {
            throw ValidationError(error.message)
        }
    }

    @Sendable static func scale(_ text: String) throws -> Double {
        guard let value = Double(text), TextTrackStyle.isDrawable(fontScale: value) else {
            throw ValidationError("'\(text)' is not a font scale; write a positive number at most 100, such as 1.5")
        }
        return value
    }

    @Sendable static func radius(_ text: String) throws -> Double {
        guard let value = Double(text), TextTrackStyle.isDrawable(cornerRadius: value) else {
            throw ValidationError("'\(text)' is not a radius; write a number of pixels from 0 to 10000")
        }
        return value
    }

    /// An enumerated value, written as Cast writes it (`DROP_SHADOW`) or in lower case with hyphens
    /// (`drop-shadow`).
    package static func value<Value: CastEnumeration>(_ text: String, of type: Value.Type) throws -> Value {
        let normalized = text.uppercased().map { $0 == "-" ? "_" : $0 }
        if let value = Value(rawValue: String(normalized)) { return value }
        let choices = Value.allCases.map { $0.rawValue.lowercased().map { $0 == "_" ? "-" : $0 } }.map { String($0) }
        throw ValidationError("'\(text)' is not a \(Value.castName); expected one of \(choices.joined(separator: ", "))")
    }
}
