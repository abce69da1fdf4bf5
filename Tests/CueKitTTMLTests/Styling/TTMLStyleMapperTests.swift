import Testing

@testable import CueKitTTML

/// What each `tts:` property becomes in WebVTT's `::cue` CSS and tags (TTML2 section 10.2).
struct TTMLStyleMapperTests {
    static let layout: TTMLLayoutParameters = {
        var layout = TTMLLayoutParameters()
        layout.rootExtent = (1920, 1080)
        return layout
    }()

    static func map(_ property: TTMLStyleProperty, _ value: String, at level: TTMLStyleMapper.Level = .inline)
        -> (css: String, tags: TTMLPresentation.Tags, issues: [TTMLStyleMapper.Issue])
    {
        var set = TTMLStyleSet()
        set[property] = value
        let (presentation, issues) = TTMLStyleMapper(layout: layout).presentation(of: set, at: level)
        return (presentation.cssBody, presentation.tags, issues)
    }

    @Test func colors() {
        #expect(Self.map(.color, "red").css == "color: #ff0000;")
        #expect(Self.map(.color, "#00FF0080").css == "color: #00ff0080;")
        #expect(Self.map(.color, "rgb(255,128,0)").css == "color: #ff8000;")
        #expect(Self.map(.color, "rgba(255, 255, 0, 128)").css == "color: #ffff0080;")
        #expect(Self.map(.backgroundColor, "transparent").css == "background-color: #00000000;")
        #expect(Self.map(.color, "#12345").issues.map(\.kind) == [.invalid("is not a colour")])
        #expect(Self.map(.color, "Red").issues.count == 1)
    }

    /// Alignment and direction are read where the cue settings are made, and a value that is none
    /// of theirs is reported, as for every other property, not passed over.
    @Test func layoutValuesThatCannotBeReadAreReported() {
        for (property, good, bad) in [(TTMLStyleProperty.textAlign, "end", "sideways"), (.displayAlign, "after", "middle"), (.direction, "rtl", "up")] {
            #expect(Self.map(property, good, at: .paragraph).issues.isEmpty, "\(property)")
            let issues = Self.map(property, bad, at: .paragraph).issues
            #expect(issues.count == 1, "\(property) \(bad)")
            if case .invalid = issues.first?.kind {} else { Issue.record("\(property) \(bad): \(issues)") }
        }
    }

    /// Cells and pixels become `vh` of the video (the root container); percentages stay relative.
    @Test func fontSizes() {
        #expect(Self.map(.fontSize, "1.5c").css == "font-size: 10vh;")
        #expect(Self.map(.fontSize, "54px").css == "font-size: 5vh;")
        #expect(Self.map(.fontSize, "150%").css == "font-size: 150%;")
        #expect(Self.map(.fontSize, "5rh").css == "font-size: 5vh;")
        let anamorphic = Self.map(.fontSize, "1c 2c")
        #expect(anamorphic.css == "font-size: 13.3333vh;")
        #expect(anamorphic.issues.count == 1)
        #expect(Self.map(.fontSize, "36").issues.first?.kind == .invalid("is not one or two non-negative lengths with units"))
    }

    @Test func fontFamilies() {
        #expect(Self.map(.fontFamily, "'Noto Sans', Arial, proportionalSansSerif").css == #"font-family: "Noto Sans", "Arial", sans-serif;"#)
        #expect(Self.map(.fontFamily, "monospaceSerif, default").css == "font-family: monospace;")
        #expect(Self.map(.fontFamily, "default").css == "")
        #expect(Self.map(.fontFamily, "'unclosed").issues.count == 1)
    }

    /// Italic, bold and underline are tags every player honours; the rest is CSS.
    @Test func fontStyleWeightDecoration() {
        #expect(Self.map(.fontStyle, "italic").tags == .italic)
        #expect(Self.map(.fontStyle, "oblique").css == "font-style: oblique;")
        #expect(Self.map(.fontWeight, "bold").tags == .bold)
        #expect(Self.map(.fontWeight, "normal").css == "font-weight: normal;")
        let decoration = Self.map(.textDecoration, "underline lineThrough overline")
        #expect(decoration.tags == .underline)
        #expect(decoration.css == "text-decoration: line-through overline;")
    }

    /// An outline is eight shadows at its thickness; its colour defaults to the text's.
    @Test func outlinesAndShadows() {
        #expect(
            Self.map(.textOutline, "black 0.1c").css
                == "text-shadow: 0.6667vh 0 #000000, -0.6667vh 0 #000000, 0 0.6667vh #000000, 0 -0.6667vh #000000, 0.6667vh 0.6667vh #000000, -0.6667vh -0.6667vh #000000, 0.6667vh -0.6667vh #000000, -0.6667vh 0.6667vh #000000;"
        )
        #expect(Self.map(.textOutline, "10% 5%").css.hasPrefix("text-shadow: 0.1em 0 0.05em, -0.1em 0 0.05em,"))
        #expect(Self.map(.textOutline, "none").css == "text-shadow: none;")
        #expect(Self.map(.textShadow, "1px 2px red, 3% 3% 1% #000000").css == "text-shadow: 0.0521vw 0.1852vh #ff0000, 0.03em 0.03em 0.01em #000000;")
    }

    @Test func otherMappedProperties() {
        #expect(Self.map(.opacity, "0.5").css == "opacity: 0.5;")
        #expect(Self.map(.visibility, "hidden").css == "visibility: hidden;")
        #expect(Self.map(.lineHeight, "125%").css == "line-height: 125%;")
        #expect(Self.map(.wrapOption, "noWrap").css == "white-space: pre;")
        #expect(Self.map(.textCombine, "all").css == "text-combine-upright: all;")
        #expect(Self.map(.rubyPosition, "after").css == "ruby-position: under;")
    }

    /// What WebVTT cannot say is reported, never dropped silently; neutral values say nothing.
    @Test func unexpressibleStylesAreReported() {
        #expect(Self.map(.textEmphasis, "circle").issues.map(\.property) == [.textEmphasis])
        #expect(Self.map(.letterSpacing, "0.1em").issues.map(\.property) == [.letterSpacing])
        #expect(Self.map(.multiRowAlign, "center").issues.map(\.property) == [.multiRowAlign])
        #expect(Self.map(.letterSpacing, "normal").issues.isEmpty)
        #expect(Self.map(.padding, "1c", at: .region).issues.map(\.property) == [.padding])
        // Layout properties are cue settings, not CSS, and raise nothing here.
        #expect(Self.map(.textAlign, "center").issues.isEmpty)
        #expect(Self.map(.textAlign, "center").css.isEmpty)
    }

    /// Without the root container's pixel size, pixels cannot be related to the video.
    @Test func pixelsNeedARootExtent() {
        var set = TTMLStyleSet()
        set[.fontSize] = "24px"
        let (presentation, issues) = TTMLStyleMapper(layout: TTMLLayoutParameters()).presentation(of: set, at: .inline)
        #expect(presentation.declarations.isEmpty)
        #expect(issues.count == 1)
    }
}
