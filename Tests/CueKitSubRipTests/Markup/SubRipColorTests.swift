import CueKitSubRip
import Testing

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

    @Test func readsItsClassesBack() {
        #expect(SubRipColor(className: "red")?.cssValue == "#ff0000")
        #expect(SubRipColor(className: "color-ff8000")?.cssValue == "#ff8000")
        #expect(SubRipColor(className: "color-orange")?.cssValue == "orange")
        #expect(SubRipColor(className: "loud") == nil)
        #expect(SubRipColor(className: "color-") == nil)
        #expect(SubRipColor(className: "color-a;b") == nil)
    }
}
