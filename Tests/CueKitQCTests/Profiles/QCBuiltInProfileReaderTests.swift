import CueKit
import Testing

@testable import CueKitQC

/// The reader the built-in profiles are read with reads each as `JSONDecoder` does, and leaves to
/// `JSONDecoder` what it does not read.
@Suite struct QCBuiltInProfileReaderTests {
    @Test(arguments: QCProfile.builtInNames) func readsEachBuiltInProfileAsJSONDecoderDoes(name: String) throws {
        let bytes = try #require(QCProfile.builtInJSON(named: name))
        let read = try #require(QCProfile(builtInJSON: bytes))
        #expect(read == (try QCProfile(json: bytes)))
        #expect(try QCProfile.builtIn(named: name) == read)
    }

    @Test func readsNullAsAMissingKeyAndNumbersAsTheirFieldsWant() throws {
        let json = #"""
            {"name": "x", "title": "X", "source": null, "rules": {"readingSpeed": {"maximumCharactersPerSecond": 15.5, "severity": "error"},
             "lineLength": {"maximumCharacters": 40}, "markup": {"allowedTags": ["i", "b"]}, "characters": {"allowed": "cea608"}},
             "languages": {"fr": {"rules": {"gap": {"minimumFrames": 3}}}}}
            """#
        let bytes = Array(json.utf8)
        let read = try #require(QCProfile(builtInJSON: bytes))
        #expect(read == (try QCProfile(json: bytes)))
        #expect(read.source == nil && read.rules.readingSpeed?.maximumCharactersPerSecond == 15.5)
        #expect(read.languages?["fr"]?.rules?.gap?.minimumFrames == 3)
    }

    @Test(arguments: [
        #"{"name": "a\"b", "title": "X", "rules": {}}"#,  // an escape
        #"{"name": "x", "title": "X", "rules": {"lineCount": {"maximum": 2.5}}}"#,  // a fraction for an integer
        #"{"name": "x", "title": "X", "rules": {"overlap": {"severity": "fatal"}}}"#,  // no such severity
        #"{"name": "x", "title": "X"}"#,  // no rules
        #"{"name": "x", "name": "y", "title": "X", "rules": {}}"#,  // a key twice
        #"{"name": "x", "title": "X", "rules": {}} x"#,  // more after the object
        #"{"name": true, "title": "X", "rules": {}}"#,  // a literal other than null
    ])
    func leavesWhatItDoesNotReadToJSONDecoder(json: String) {
        #expect(QCProfile(builtInJSON: Array(json.utf8)) == nil)
    }
}
