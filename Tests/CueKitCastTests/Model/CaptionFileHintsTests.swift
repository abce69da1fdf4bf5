import CueKitCast
import Testing

@Suite struct CaptionFileHintsTests {
    @Test(arguments: [
        ("movie.vtt", CaptionFileHints(contentType: "text/vtt")),
        ("subs/movie.en.vtt", CaptionFileHints(contentType: "text/vtt", language: "en")),
        ("movie.pt-BR.sdh.vtt", CaptionFileHints(contentType: "text/vtt", language: "pt-BR", kind: .captions)),
        ("movie.final.vtt", CaptionFileHints(contentType: "text/vtt")),
        ("the.movie.fr.ttml", CaptionFileHints(contentType: "application/ttml+xml", language: "fr")),
        ("episode.de.SRT", CaptionFileHints(contentType: "application/x-subrip", language: "de")),
        ("README", CaptionFileHints()),
    ])
    func readsTheFileName(name: String, expected: CaptionFileHints) {
        #expect(CaptionFileHints(fileName: name) == expected)
    }

    @Test func headerLinesWinOverTheName() {
        let hints = CaptionFileHints(
            fileName: "movie.en.vtt", webVTTHeader: "- Episode 1\nKind: captions\nLanguage:  en-GB \nLabel: English (CC)")
        #expect(hints == CaptionFileHints(contentType: "text/vtt", language: "en-GB", label: "English (CC)", kind: .captions))
    }

    @Test func ignoresHeaderLinesItDoesNotKnow() {
        let hints = CaptionFileHints(fileName: "a.vtt", webVTTHeader: "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\nKind: songs")
        #expect(hints == CaptionFileHints(contentType: "text/vtt"))
    }
}
