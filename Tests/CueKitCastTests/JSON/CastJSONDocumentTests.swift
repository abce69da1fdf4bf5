import CueKit
import CueKitCast
import Testing

@Suite struct CastJSONDocumentTests {
    @Test func parsesEveryKindOfValueAndKeepsKeyOrder() throws {
        let document = try CastJSONDocument(parsing: #"{"z": 1, "a": [true, false, null, -0.5e1, "é\n\u00e9\ud83d\ude00"], "m": {}}"#)
        guard case .object(let object) = document.value else {
            Issue.record("not an object: \(document.value)")
            return
        }
        #expect(object.keys == ["z", "a", "m"])
        #expect(object["z"] == .number(1))
        #expect(object["a"] == [true, false, nil, -5, "é\né😀"])
        #expect(object["m"] == .object(CastJSONObject()))
    }

    @Test func recordsWhereEachValueStarts() throws {
        let text = "{\n  \"media\": {\n    \"tracks\": [\n      {\"trackId\": 1},\n      {\"trackId\": \"é\", \"x\": 2}\n    ]\n  }\n}"
        let document = try CastJSONDocument(parsing: text)
        let tracks = CastJSONPath.root.appending("media").appending("tracks")
        #expect(document.locations[.root] == SourceLocation(line: 1, column: 1))
        #expect(document.locations[tracks] == SourceLocation(line: 3, column: 15))
        #expect(document.locations[tracks.appending(index: 0).appending("trackId")] == SourceLocation(line: 4, column: 19))
        // Columns count scalars: "é" is one column although it is two bytes.
        #expect(document.locations[tracks.appending(index: 1).appending("x")] == SourceLocation(line: 5, column: 29))
        // A missing member is placed at its object.
        #expect(document.locations.nearest(tracks.appending(index: 0).appending("language")) == SourceLocation(line: 4, column: 7))
    }

    @Test func countsCarriageReturnsAsLineEnds() throws {
        let document = try CastJSONDocument(parsing: "{\r\n\"a\":\r1,\r\"b\": 2}")
        #expect(document.locations[CastJSONPath.root.appending("a")] == SourceLocation(line: 3, column: 1))
        #expect(document.locations[CastJSONPath.root.appending("b")] == SourceLocation(line: 4, column: 6))
    }

    @Test(arguments: [
        ("", "1:1", "the document is empty"),
        ("{\"a\": 1,}", "1:9", "expected a member name"),
        ("[1, 2", "1:6", "unexpected end of input"),
        ("{\"a\" 1}", "1:6", "expected ':' after member name \"a\""),
        ("[01]", "1:2", "leading zeros"),
        ("[1e999]", "1:2", "too large"),
        ("[NaN]", "1:2", "unexpected 'N'"),
        ("[\"a\tb\"]", "1:4", "control character 0x9"),
        ("[\"\\ud800\"]", "1:3", "lone high surrogate"),
        ("[\"\\x\"]", "1:3", "not a JSON escape"),
        ("{} {}", "1:4", "after the end of the JSON value"),
        ("// comment\n{}", "1:1", "unexpected '/'"),
        ("\n\n  tru", "3:3", "expected 'true'"),
    ])
    func reportsSyntaxErrorsWhereTheyAre(text: String, location: String, fragment: String) {
        #expect {
            try CastJSONDocument(parsing: text)
        } throws: { error in
            guard let error = error as? ReadError else { return false }
            return error.diagnostic.code == .castJSONSyntax && error.diagnostic.location?.description == location
                && error.diagnostic.message.contains(fragment)
        }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: ReadError.self) { try CastJSONDocument(parsing: [0x22, 0xC0, 0x80, 0x22] as [UInt8]) }
        #expect(throws: ReadError.self) { try CastJSONDocument(parsing: [0x22, 0xED, 0xA0, 0x80, 0x22] as [UInt8]) }
        #expect(throws: ReadError.self) { try CastJSONDocument(parsing: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22] as [UInt8]) }
    }

    @Test func skipsAByteOrderMark() throws {
        let document = try CastJSONDocument(parsing: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8))
        #expect(document.value == [1])
        #expect(document.locations[.root] == SourceLocation(line: 1, column: 1))
    }

    @Test func stopsDeepNestingWithAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect {
            try CastJSONDocument(parsing: deep)
        } throws: { error in
            (error as? ReadError)?.diagnostic.message.contains("nested more than 512 deep") == true
        }
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try CastJSONDocument(parsing: allowed) }
    }

    @Test func warnsAboutDuplicateKeysAndKeepsTheLastValueInTheFirstPlace() throws {
        let document = try CastJSONDocument(parsing: #"{"a": 1, "b": 2, "a": 3}"#)
        #expect(document.value.objectValue?.keys == ["a", "b"])
        #expect(document.value.objectValue?["a"] == 3)
        #expect(document.diagnostics.count == 1)
        #expect(document.diagnostics.first?.code == .castJSONDuplicateKey)
        #expect(document.diagnostics.first?.location == SourceLocation(line: 1, column: 18))
        #expect(document.diagnostics.first?.message.hasPrefix("$.a appears more than once") == true)
    }

    @Test func pathsReadAsJSONPath() {
        let path = CastJSONPath.root.appending("media").appending("tracks").appending(index: 2).appending("odd key's")
        #expect(path.description == #"$.media.tracks[2]['odd key\'s']"#)
        #expect(CastJSONPath.root.description == "$")
        #expect(CastJSONPath.root.appending("1st").description == "$['1st']")
    }
}
