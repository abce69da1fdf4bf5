import CueKitTestSupport
import Testing

@testable import CueKitSubRip

@Suite struct SubRipColorTests {
    @Test func givesWebVTTDefaultClassesToTheirColoursInAnyForm() {
        for value in ["#FFFF00", "#ff0", "ffff00", "Yellow", " yellow "] {
            #expect(SubRipColor(attributeValue: value)?.className == "yellow", "\(value)")
        }
        #expect(SubRipColor(attributeValue: "aqua")?.className == "cyan")
        #expect(SubRipColor(attributeValue: "#00FF00")?.className == "lime")
    }

    @Test func derivesOtherClassesFromTheValue() {
        #expect(SubRipColor(attributeValue: "#FF8000")?.className == "color-ff8000")
        #expect(SubRipColor(attributeValue: "#FF8000")?.rule.css() == "::cue(.color-ff8000) { color: #ff8000; }")
        #expect(SubRipColor(attributeValue: "#11223344")?.cssValue == "#11223344")
        #expect(SubRipColor(attributeValue: "Orange")?.rule.css() == "::cue(.color-orange) { color: orange; }")
    }

    @Test func refusesWhatIsNoColour() {
        for value in ["", "#", "#12345", "rgb(1,2,3)", "&H00FFFF&", "#ggg", "red;}", "12345"] {
            #expect(SubRipColor(attributeValue: value) == nil, "\(value)")
        }
    }

    /// `#rrggbb` read from its bytes (in `<font color="#rrggbb">`, and as a value) gives what the
    /// general reading gives for the same value written otherwise (with white space around it, or
    /// two spaces before the attribute), reports included: on random values, most of them hex
    /// digits in either case, some not.
    @Test func theSixDigitFormAgreesWithTheGeneralReading() {
        var random = SeededRandom(seed: 0x6C)
        let digits = Array("0fF0f0fF19aAcCeE#gz ".utf8)
        var colors = 0
        for _ in 0..<5_000 {
            // Now and then with the last four bytes, which are no hex digits.
            let alphabet = Int.random(in: 0..<4, using: &random) == 0 ? digits.count : digits.count - 4
            let value = "#" + String(decoding: (0..<6).map { _ in digits[Int.random(in: 0..<alphabet, using: &random)] }, as: UTF8.self)
            let fast = SubRipColor(attributeValue: value)
            #expect(fast == SubRipColor(attributeValue: " \(value)\t"), "\(value)")
            if fast != nil { colors += 1 }
            func read(_ attributes: String) -> (SubRipColor?, Int) {
                var reports = 0
                let bytes = Array(attributes.utf8)
                let color = bytes.withUnsafeBufferPointer { SubRipMarkupConverter.fontColor($0, offset: 0) { _ in reports += 1 } }
                return (color, reports)
            }
            let inTag = read(" color=\"\(value)\""), general = read("  color=\"\(value)\"")
            #expect(inTag.0 == general.0 && inTag.1 == general.1, "\(value)")
            #expect(inTag.0 == fast, "\(value)")
        }
        #expect(colors > 1_000 && colors < 4_900)
    }

    @Test func readsItsClassesBack() {
        #expect(SubRipColor(className: "red")?.cssValue == "#ff0000")
        #expect(SubRipColor(className: "color-ff8000")?.cssValue == "#ff8000")
        #expect(SubRipColor(className: "color-orange")?.cssValue == "orange")
        #expect(SubRipColor(className: "loud") == nil)
        #expect(SubRipColor(className: "color-") == nil)
        #expect(SubRipColor(className: "color-a;b") == nil)
    }
}
