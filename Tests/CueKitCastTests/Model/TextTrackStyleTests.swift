import CueKit
import CueKitCast
import CueKitTestSupport
import Foundation
import Testing

@Suite struct TextTrackStyleTests {
    @Test func roundTripsEveryFieldByteForByte() throws {
        let text = try String(decoding: TestPaths.bytes(TestPaths.fixture("cast/text-track-style-every-field.json")), as: UTF8.self)
        let style = try TextTrackStyle(document: CastJSONDocument(parsing: text))
        #expect(
            style
                == TextTrackStyle(
                    foregroundColor: CastColor(red: 255, green: 255, blue: 0),
                    backgroundColor: CastColor(red: 0, green: 0, blue: 0, alpha: 128),
                    edgeType: .dropShadow,
                    edgeColor: .black,
                    fontScale: 1.2,
                    fontFamily: "Droid Sans",
                    fontGenericFamily: .sansSerif,
                    fontStyle: .boldItalic,
                    windowType: .roundedCorners,
                    windowColor: CastColor(red: 0, green: 0, blue: 255, alpha: 64),
                    windowRoundedCornerRadius: 8,
                    customData: ["theme": "high-contrast", "levels": [1, 2]]
                )
        )
        #expect(style.json.serialized() + "\n" == text)
    }

    @Test func absentStaysAbsentAndNullReadsAsAbsent() throws {
        let style = try TextTrackStyle(json: ["fontScale": 2, "edgeType": nil, "customData": nil])
        #expect(style.fontScale == 2)
        #expect(style.edgeType == nil)
        #expect(style.customData == .null)
        #expect(style.json.serialized(.compact) == #"{"fontScale":2,"customData":null}"#)
        #expect(TextTrackStyle().json.serialized(.compact) == "{}")
    }

    @Test func createDefaultSetsOnlyTheFontScale() {
        let style = TextTrackStyle.createDefault()
        #expect(style.json.serialized(.compact) == #"{"fontScale":1}"#)
        #expect(!style.isEmpty)
        #expect(TextTrackStyle().isEmpty)
    }

    @Test func keepsUnknownMembersAndWritesThemBack() throws {
        var decoded: CastCheckResult { CastMessage.check(Array(##"{"fontScale": 1, "fontColour": "#FFFFFFFF"}"##.utf8), as: .style) }
        let style = try TextTrackStyle(json: ["fontScale": 1, "fontColour": "#FFFFFFFF"])
        #expect(style.otherFields["fontColour"] == "#FFFFFFFF")
        #expect(style.json.serialized(.compact) == ##"{"fontScale":1,"fontColour":"#FFFFFFFF"}"##)
        #expect(decoded.isValid)
        #expect(
            decoded.diagnostics.map(\.description) == [
                "1:32: note: $.fontColour: 'fontColour' is not a TextTrackStyle field CueKit checks; it is kept as it is [cast-unknown-field]"
            ])
    }

    @Test(arguments: [
        (
            ##"{"foregroundColor": "#FFF"}"##,
            "1:21: error: $.foregroundColor: '#FFF' is not a Cast colour: it has 3 hexadecimal digits, not 8 or 6; write '#RRGGBBAA' (alpha last) or '#RRGGBB' (opaque) [cast-bad-color]"
        ),
        (
            #"{"edgeType": "drop_shadow"}"#,
            "1:14: error: $.edgeType: 'drop_shadow' is not a TextTrackEdgeType; expected one of NONE, OUTLINE, DROP_SHADOW, RAISED, DEPRESSED (Cast values are upper case: DROP_SHADOW) [cast-unknown-value]"
        ),
        (
            #"{"fontStyle": "OBLIQUE"}"#,
            "1:15: error: $.fontStyle: 'OBLIQUE' is not a TextTrackFontStyle; expected one of NORMAL, BOLD, BOLD_ITALIC, ITALIC [cast-unknown-value]"
        ),
        (
            #"{"fontScale": -1.5}"#,
            "1:15: error: $.fontScale: fontScale must be a positive number at most 100 (1 is the receiver's default size), found -1.5 [cast-bad-font-scale]"
        ),
        (
            #"{"fontScale": 0}"#,
            "1:15: error: $.fontScale: fontScale must be a positive number at most 100 (1 is the receiver's default size), found 0 [cast-bad-font-scale]"
        ),
        (
            #"{"fontScale": 1e308}"#,
            "1:15: error: $.fontScale: fontScale must be a positive number at most 100 (1 is the receiver's default size), found 1e+308 [cast-bad-font-scale]"
        ),
        (
            #"{"windowRoundedCornerRadius": -4}"#,
            "1:31: error: $.windowRoundedCornerRadius: windowRoundedCornerRadius is a radius in pixels from 0 to 10000, found -4 [cast-bad-radius]"
        ),
        (
            #"{"windowRoundedCornerRadius": 1e308}"#,
            "1:31: error: $.windowRoundedCornerRadius: windowRoundedCornerRadius is a radius in pixels from 0 to 10000, found 1e+308 [cast-bad-radius]"
        ),
        (
            #"{"fontScale": "1.5"}"#,
            "1:15: error: $.fontScale: expected a number, found a string [cast-wrong-type]"
        ),
        (
            #"{"windowType": "ROUNDED"}"#,
            "1:16: error: $.windowType: 'ROUNDED' is not a TextTrackWindowType; expected one of NONE, NORMAL, ROUNDED_CORNERS [cast-unknown-value]"
        ),
        (
            #"{"fontGenericFamily": "MONOSPACE"}"#,
            "1:23: error: $.fontGenericFamily: 'MONOSPACE' is not a TextTrackFontGenericFamily; expected one of SANS_SERIF, MONOSPACED_SANS_SERIF, SERIF, MONOSPACED_SERIF, CASUAL, CURSIVE, SMALL_CAPITALS [cast-unknown-value]"
        ),
    ])
    func errorsNameTheField(text: String, expected: String) {
        #expect {
            try TextTrackStyle(document: CastJSONDocument(parsing: text))
        } throws: { error in
            (error as? CastDecodingError)?.description == expected
        }
    }

    @Test func reportsEveryBadFieldAtOnce() {
        #expect {
            try TextTrackStyle(json: ["foregroundColor": "white", "edgeType": "GLOW", "fontScale": .number(.infinity)])
        } throws: { error in
            guard let error = error as? CastDecodingError else { return false }
            return error.diagnostics.map(\.code) == [.castBadColor, .castUnknownValue, .castBadFontScale]
                && error.diagnostics.allSatisfy { $0.location == nil }
        }
    }

    @Test func decodesAndEncodesThroughFoundation() throws {
        let data = Data(##"{"edgeType":"OUTLINE","edgeColor":"#00FF00","fontScale":1.25}"##.utf8)
        let style = try JSONDecoder().decode(TextTrackStyle.self, from: data)
        #expect(style == TextTrackStyle(edgeType: .outline, edgeColor: CastColor(red: 0, green: 255, blue: 0), fontScale: 1.25))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(style), as: UTF8.self)
                == ##"{"edgeColor":"#00FF00FF","edgeType":"OUTLINE","fontScale":1.25}"##)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TextTrackStyle.self, from: Data(#"{"fontScale":-1}"#.utf8))
        }
    }
}
