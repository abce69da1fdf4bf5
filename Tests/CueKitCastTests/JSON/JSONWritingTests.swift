import CueKitCast
import Foundation
import Testing

@Suite struct JSONWritingTests {
    @Test func writesPrettyAndCompactText() {
        let value: CastJSONValue = ["b": [1, 2.5, "x"], "a": nil, "e": [:], "f": []]
        #expect(value.serialized(.compact) == #"{"b":[1,2.5,"x"],"a":null,"e":{},"f":[]}"#)
        #expect(
            value.serialized()
                == """
                {
                  "b": [
                    1,
                    2.5,
                    "x"
                  ],
                  "a": null,
                  "e": {},
                  "f": []
                }
                """
        )
    }

    @Test(arguments: [
        (3.0, "3"), (-0.0, "0"), (0.1, "0.1"), (1e-7, "1e-7"), (1.5e20, "150000000000000000000"), (1.5e21, "1.5e+21"), (9007199254740993.0, "9007199254740992"),
        (1e18, "1000000000000000000"), (1e21, "1e+21"),
        (Double.nan, "null"), (Double.infinity, "null"),
    ])
    func writesNumbersAsJavaScriptReadsThem(value: Double, text: String) throws {
        #expect(CastJSONValue.number(value).serialized() == text)
        if value.isFinite {
            #expect(try CastJSONDocument(parsing: text).value == .number(value))
        }
    }

    @Test func escapesStrings() throws {
        let value = CastJSONValue.string("quote \" backslash \\ newline \n tab \t bell \u{07} delete \u{7F} é 😀")
        let text = value.serialized()
        #expect(text == #""quote \" backslash \\ newline \n tab \t bell \u0007 delete \u007F é 😀""#)
        #expect(try CastJSONDocument(parsing: text).value == value)
    }

    @Test func objectsEqualWhateverTheirOrder() {
        let first: CastJSONValue = ["a": 1, "b": 2]
        let second: CastJSONValue = ["b": 2, "a": 1]
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first.serialized(.compact) != second.serialized(.compact))
        var object = CastJSONObject()
        object["x"] = 1
        object["y"] = 2
        object["x"] = 3
        object["y"] = nil
        #expect(object.keys == ["x"])
        #expect(Array(object.map(\.key)) == ["x"])
    }

    @Test func roundTripsThroughFoundationsCoders() throws {
        let value: CastJSONValue = ["list": [1, "two", true, nil, ["nested": 0.25]], "n": -7]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(CastJSONValue.self, from: data)
        #expect(decoded == value)
    }
}
