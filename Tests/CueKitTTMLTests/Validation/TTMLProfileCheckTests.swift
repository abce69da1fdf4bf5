import CueKit
import CueKitTTML
import CueKitTestSupport
import Testing

/// ``TTMLProfileCheck``: each constraint, where it is reported (the end of the element's start
/// tag, where the XML reader places every element), and which profile a document declares.
@Suite struct TTMLProfileCheckTests {
    static func findings(_ document: String, _ profile: TTMLProfile? = nil) -> (profile: TTMLProfile?, findings: [String]) {
        var findings: [String] = []
        let checked = TTMLProfileCheck.check(bytes: Array(document.utf8), profile: profile) { diagnostic in
            let place = diagnostic.location.map { "\($0.line):\($0.column)" } ?? "-"
            findings.append("\(place) \(diagnostic.severity): \(diagnostic.message)")
        }
        return (checked, findings)
    }

    static let imscRoot = #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xmlns:tts="http://www.w3.org/ns/ttml#styling" ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text""#
    static let ebuHead = """
        <head><metadata><ebuttm:documentMetadata><ebuttm:conformsToStandard>urn:ebu:tt:distribution:2014-01</ebuttm:conformsToStandard></ebuttm:documentMetadata></metadata>
        <styling><style xml:id="s" tts:color="white"/></styling><layout><region xml:id="r" tts:origin="10% 10%" tts:extent="80% 80%"/></layout></head>
        """
    static let ebuRoot = #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ebuttm="urn:ebu:tt:metadata" ttp:timeBase="media""#

    @Test func aDocumentThatDeclaresNoProfileIsNotChecked() {
        let (profile, findings) = Self.findings(#"<tt xmlns="http://www.w3.org/ns/ttml"><body/></tt>"#)
        #expect(profile == nil)
        #expect(findings.isEmpty)
    }

    @Test func imscConstraints() {
        let document = """
            \(Self.imscRoot)>
            <body><div>
            <p begin="00:00:01:05" end="2s" tts:textShadow="1px 1px, 2px 2px, 3px 3px, 4px 4px, 5px 5px">a</p>
            <p begin="00:00:03:00" end="4s">b</p>
            </div></body></tt>
            """
        let (profile, findings) = Self.findings(document)
        #expect(profile == .imsc11)
        #expect(
            findings == [
                "1:201 error: tt has no xml:lang; every TTML document states its language (TTML1 section 7.1.1)",
                "3:93 error: begin=\"00:00:01:05\" counts frames, but tt has no ttp:frameRate (IMSC 1.1 section 8.2) (2 times; the first is shown)",
                "3:93 error: tts:textShadow has more than four shadows; IMSC 1.1 allows at most four (section 8.4)",
                "3:93 error: a length in px, but tt has no tts:extent to relate pixels to the video (IMSC 1.1 section 8.4, #length-pixel)",
            ], "\(findings)")
    }

    @Test func ebuTTDConstraints() {
        let document = """
            \(Self.ebuRoot) xml:lang="en">
            \(Self.ebuHead)
            <body style="s"><div>
            <p begin="00:00:01.000" end="2s" region="r">offset time</p>
            <p begin="00:00:03.000" end="00:00:04.000" tts:color="red" region="r">inline style</p>
            <p begin="00:00:05.000" end="00:00:06.000">no region</p>
            <p begin="00:00:07.000" end="00:00:08.000" region="r"><set tts:color="red"/>animated</p>
            </div></body></tt>
            """
        let (profile, findings) = Self.findings(document)
        #expect(profile == .ebuTTD)
        #expect(
            findings == [
                "5:44 error: end=\"2s\": EBU-TT-D times are written hh:mm:ss.fff",
                "6:70 error: style attribute tts:color on <p>: EBU-TT-D styles content only through style elements it refers to (2 times; the first is shown)",
                "7:43 error: a paragraph in no region: every EBU-TT-D paragraph is shown in a region",
                "8:75 error: <set>: EBU-TT-D has no animation",
            ], "\(findings)")
    }

    @Test func ebuTTDRegionsArePlacedInPercent() {
        let document = """
            \(Self.ebuRoot) xml:lang="en">
            <head><layout><region xml:id="r" tts:origin="10px 10px"/></layout></head><body/></tt>
            """
        let (_, findings) = Self.findings(document, .ebuTTD)
        #expect(
            findings == [
                "2:56 error: tts:origin \"10px 10px\": EBU-TT-D regions are placed in percent",
                "2:56 error: an EBU-TT-D region has tts:extent",
                "1:202 warning: EBU-TT-D documents declare ebuttm:conformsToStandard urn:ebu:tt:distribution:… in their head's metadata",
            ], "\(findings)")
    }

    @Test func ttml1HasNoTTML2Styles() {
        let document = #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="en"><body><div><p begin="0s" end="1s"><span tts:ruby="container">x</span></p></div></body></tt>"#
        let (_, findings) = Self.findings(document, .ttml1)
        #expect(findings.count == 1)
        #expect(findings.first?.contains("tts:ruby is TTML2; TTML1 does not have it") == true)
    }

    @Test func deliveredEBUTTDDocumentsPass() throws {
        let documents = TestPaths.files(in: TestPaths.conformance + "/ttml/irt-ebu-tt-d", suffixes: [".xml"])
        #expect(documents.count >= 3)
        for path in documents {
            var findings: [Diagnostic] = []
            let profile = try TTMLProfileCheck.check(fileAtPath: path) { findings.append($0) }
            #expect(profile == .ebuTTD, "\(path)")
            #expect(findings.isEmpty, "\(path): \(findings)")
        }
    }
}
