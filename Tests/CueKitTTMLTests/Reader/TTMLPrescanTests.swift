import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitTTML

/// The prescan of a two-pass read: the byte-level hint and the parse share one read of the bytes.
@Suite struct TTMLPrescanTests {
    private static let styledParagraph = #"<p begin="0s" end="1s" tts:color="yellow">styled</p>"#
    private static let plainParagraph = #"<p begin="0s" end="1s" style="s1">plain</p>"#
    private static let head = #"<styling><style xml:id="s1" tts:color="lime"/></styling>"#

    /// Feeds `text` in chunks of `chunkSize`, as a file is read.
    private static func pass(_ text: String, chunkSize: Int) -> TTMLReader.PrescanPass {
        var pass = TTMLReader.PrescanPass(options: TTMLReader.Options())
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            bytes[start..<end].withUnsafeBytes { pass.feed($0) }
            start = end
        }
        return pass
    }

    @Test func inlineStylesAreFoundInOneReadWhateverTheChunking() throws {
        let document = TTMLDocument.make(head: Self.head, body: "<div>\(Self.plainParagraph)\(Self.styledParagraph)</div>")
        let whole = TTMLReader.prescan(bytes: Array(document.utf8))
        #expect(whole.count == 1)
        for chunkSize in [1, 7, 64, 4096] {
            var pass = Self.pass(document, chunkSize: chunkSize)
            #expect(!pass.needsSecondLook)
            #expect(pass.finish() == whole, "chunks of \(chunkSize)")
        }
    }

    @Test func stylesInTheHeadOnlyNeedNoParse() {
        let document = TTMLDocument.make(head: Self.head, body: "<div>\(Self.plainParagraph)</div>")
        var pass = Self.pass(document, chunkSize: 16)
        #expect(!pass.needsSecondLook)
        #expect(pass.finish() == .none)
    }

    @Test func aLateFirstStyleAttributeInALargeDocumentIsStillFound() throws {
        let plainBytes = TTMLReader.PrescanPass.heldByteLimit + 1
        let plain = String(repeating: Self.plainParagraph + "\n", count: plainBytes / Self.plainParagraph.utf8.count + 1)
        let document = TTMLDocument.make(head: Self.head, body: "<div>\(plain)\(Self.styledParagraph)</div>")
        let pass = Self.pass(document, chunkSize: FileByteSource.defaultChunkSize)
        #expect(pass.needsSecondLook, "past the held-byte limit, the pass cannot parse what it no longer holds")

        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(document, to: "late.ttml")
        #expect(try TTMLReader.prescan(fileAtPath: directory.file("late.ttml")).count == 1)

        let unstyled = TTMLDocument.make(head: Self.head, body: "<div>\(plain)</div>")
        var unstyledPass = Self.pass(unstyled, chunkSize: FileByteSource.defaultChunkSize)
        #expect(!unstyledPass.needsSecondLook)
        #expect(unstyledPass.finish() == .none)
    }
}
