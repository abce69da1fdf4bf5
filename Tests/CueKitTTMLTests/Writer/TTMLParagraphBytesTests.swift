import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitTTML

/// A cue written from its bytes (``TTMLWriter/writeCue(identifier:start:end:settings:text:)``, as a
/// conversion from WebVTT hands on the cue blocks its reader reads whole) and the same cue written
/// from its `.cue` event give the same document and the same diagnostics, on random tracks: random
/// markup, identifiers `xml:id` takes and near misses it refuses, settings that make regions, in
/// every profile, with paint-on timestamps and frames.
@Suite struct TTMLParagraphBytesTests {
    static let identifiers = ["", "c", "_c", "1c", "é-name", "a b", "dup", "dup", "x→y", "名前", "c.d", "a:b", "\u{300}a"]
    static let settings = [
        CueSettings(), CueSettings(line: .percentage(50), position: .percentage(20), size: 80, alignment: .start),
        CueSettings(line: .number(-2), size: 60), CueSettings(line: .percentage(95), alignment: .right),
        CueSettings(vertical: .growingLeft, alignment: .end), CueSettings(line: .number(0)),
    ]

    /// A track of `count` cues: random markup (``TTMLWriterTextPathTests/pieces``), identifiers
    /// and settings.
    static func randomTrack(seed: UInt64, count: Int) throws -> Track {
        var random = SeededRandom(seed: seed)
        var track = try TTMLWriterTextPathTests.randomTrack(seed: seed, count: count)
        for index in track.cues.indices {
            let identifier = identifiers.randomElement(using: &random)!
            track.cues[index].id = identifier == "c" ? "c\(index)" : identifier
            track.cues[index].settings = settings.randomElement(using: &random)!
        }
        return track
    }

    /// The document and the diagnostics of `track`, its cues written from their events or from
    /// their bytes.
    static func write(_ track: Track, fromBytes: Bool, options: TTMLWriterOptions) throws -> (bytes: [UInt8], diagnostics: [Diagnostic]) {
        var writer = TTMLWriter(to: MemorySink(), options: options)
        try writer.write(.header(track.header))
        for sheet in track.stylesheets { try writer.write(.stylesheet(sheet)) }
        for cue in track.cues {
            if fromBytes {
                var identifier = cue.id
                var text = cue.text
                try identifier.withUTF8 { identifier in
                    try text.withUTF8 { text in
                        try writer.writeCue(
                            identifier: UnsafeRawBufferPointer(identifier), start: cue.start, end: cue.end, settings: cue.settings,
                            text: UnsafeRawBufferPointer(text))
                    }
                }
            } else {
                try writer.write(.cue(cue))
            }
        }
        try writer.finish()
        return (writer.sink.bytes, writer.diagnostics)
    }

    @Test(arguments: [TTMLProfile.imsc11, .ebuTTD, .ttml1])
    func bytesAndEventsWriteTheSameDocument(profile: TTMLProfile) throws {
        for seed in UInt64(1)...4 {
            let track = try Self.randomTrack(seed: seed &* 131, count: 1500)
            for variant in 0..<3 {
                var options = TTMLWriterOptions(profile: profile)
                if variant == 1 { options.innerTimestamps = .paintOn }
                if variant == 2 { options.frameRate = TTMLWriterOptions.FrameRate(frames: 30, numerator: 1000, denominator: 1001) }
                let events = try Self.write(track, fromBytes: false, options: options)
                let bytes = try Self.write(track, fromBytes: true, options: options)
                #expect(TTMLWriterTextPathTests.firstDifference(bytes.bytes, events.bytes) == nil, "seed \(seed), variant \(variant)")
                #expect(bytes.diagnostics == events.diagnostics, "seed \(seed), variant \(variant)")
                #expect(events.bytes.count > 50_000)
            }
        }
    }

    /// The recent settings are compared field by field: the same answers as `==`, on settings that
    /// differ in each field alone, and every stored field compared (a new one fails here first).
    @Test func recentSettingsAreFoundAsEqualityFindsThem() {
        #expect(Mirror(reflecting: CueSettings()).children.count == 8, "a field was added to CueSettings: compare it in lastIndex(of:in:)")
        let base = CueSettings(line: .percentage(50), position: .percentage(20), size: 80, alignment: .start, region: "r")
        var variants = [base]
        for change in 0..<8 {
            var changed = base
            switch change {
            case 0: changed.vertical = .growingLeft
            case 1: changed.line = .number(50)
            case 2: changed.lineAlignment = .end
            case 3: changed.position = .auto
            case 4: changed.positionAlignment = .lineRight
            case 5: changed.size = 81
            case 6: changed.alignment = .end
            default: changed.region = nil
            }
            variants.append(changed)
        }
        for settings in variants + Self.settings {
            let found = TTMLDocumentBuilder.lastIndex(of: settings, in: variants)
            #expect(found == variants.lastIndex(of: settings), "\(settings)")
        }
        #expect(TTMLDocumentBuilder.lastIndex(of: base, in: variants + [base]) == variants.count)
    }

    /// The identifiers the bytes are checked by: the same answer as the string's check.
    @Test func identifierBytesAreNamesAsTheirStringsAre() {
        for identifier in Self.identifiers + ["", "a", "_", "é", "-a", "a-", "Ω1", "\u{FFFE}"] {
            var bytes = identifier
            let fromBytes = bytes.withUTF8 { TTMLDocumentBuilder.isXMLName(bytes: $0) }
            #expect(fromBytes == TTMLDocumentBuilder.isXMLName(identifier), "\(identifier.debugDescription)")
        }
        var name = "c.d"
        #expect(name.withUTF8 { TTMLDocumentBuilder.isXMLName(bytes: $0) })
        var notName = "a b"
        #expect(!notName.withUTF8 { TTMLDocumentBuilder.isXMLName(bytes: $0) })
    }
}
