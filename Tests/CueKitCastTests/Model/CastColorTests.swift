import CueKitCast
import Testing

@Suite struct CastColorTests {
    @Test func readsAlphaLast() throws {
        let color = try CastColor(parsing: "#FF000080")
        #expect(color == CastColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(color.hex == "#FF000080")
        #expect(color.css == "rgba(255, 0, 0, 0.502)")
    }

    @Test func readsSixDigitsAsOpaqueAndWritesEightUpperCase() throws {
        let color = try CastColor(parsing: "#0a0b0c")
        #expect(color == CastColor(red: 10, green: 11, blue: 12, alpha: 255))
        #expect(color.hex == "#0A0B0CFF")
        #expect(color.css == "rgba(10, 11, 12, 1)")
    }

    @Test(arguments: [
        ("red", "it does not start with '#'"),
        ("#FFF", "it has 3 hexadecimal digits, not 8 or 6"),
        ("#FF00000", "it has 7 hexadecimal digits, not 8 or 6"),
        ("#GG000000", "'G' is not a hexadecimal digit"),
        ("#ＦＦ0000", "'Ｆ' is not a hexadecimal digit"),
        ("", "it does not start with '#'"),
    ])
    func refusesWhatIsNotACastColour(text: String, reason: String) {
        #expect {
            try CastColor(parsing: text)
        } throws: { error in
            let error = error as? CastColor.ParseError
            return error?.message == "'\(text)' is not a Cast colour: \(reason); write '#RRGGBBAA' (alpha last) or '#RRGGBB' (opaque)"
        }
    }

    @Test func everyAlphaSurvivesCSSRounding() throws {
        for alpha in 0...255 {
            let css = CastColor(red: 0, green: 0, blue: 0, alpha: UInt8(alpha)).css
            let number = css.split(separator: ",").last!.dropFirst().dropLast()
            let value = try #require(Double(number))
            #expect(Int((value * 255).rounded()) == alpha, "alpha \(alpha) written as \(number)")
        }
    }
}
