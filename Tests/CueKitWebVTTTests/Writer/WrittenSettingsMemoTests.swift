import CueKit
import Testing

@testable import CueKitWebVTT

/// The writer's memo of written settings compares ``WrittenSettingsMemo/Key``s, which must hold
/// every setting that changes what is written.
@Suite struct WrittenSettingsMemoTests {
    /// A setting added to ``CueSettings`` must be added to the key too: this lists them.
    @Test func theKeyHoldsEverySettingButTheRegion() {
        let stored = Mirror(reflecting: CueSettings()).children.compactMap(\.label)
        #expect(stored == ["vertical", "line", "lineAlignment", "position", "positionAlignment", "size", "alignment", "region"])
        let keyed = Mirror(reflecting: WrittenSettingsMemo.Key(CueSettings())).children.compactMap(\.label)
        #expect(keyed == stored.filter { $0 != "region" })
    }

    /// Keys are equal exactly when the settings without their regions are.
    @Test func keysAreEqualWhenTheSettingsAre() {
        let variants: [CueSettings] = [
            CueSettings(),
            CueSettings(vertical: .growingLeft),
            CueSettings(line: .number(-1)),
            CueSettings(line: .percentage(90)),
            CueSettings(line: .percentage(90), lineAlignment: .end),
            CueSettings(position: .percentage(10)),
            CueSettings(position: .percentage(10), positionAlignment: .lineLeft),
            CueSettings(size: 80),
            CueSettings(alignment: .left),
        ]
        for a in variants {
            for b in variants {
                #expect((WrittenSettingsMemo.Key(a) == WrittenSettingsMemo.Key(b)) == (a == b), "\(a) \(b)")
            }
        }
    }

    /// Bytes kept are appended for the same settings, and only for them.
    @Test func keptBytesComeBackForTheSameSettings() {
        var memo = WrittenSettingsMemo()
        var buffer: [UInt8] = []
        let settings = CueSettings(line: .percentage(5), alignment: .left)
        #expect(!memo.append(settings, to: &buffer))
        memo.keep(settings, written: Array(" line:5% align:left".utf8)[...])
        #expect(memo.append(settings, to: &buffer))
        #expect(buffer == Array(" line:5% align:left".utf8))
        #expect(!memo.append(CueSettings(line: .percentage(5)), to: &buffer))
    }

    /// A track whose cues each have settings of their own makes the memo stop: no lookup finds,
    /// and nothing is kept, once misses outnumber finds by a margin.
    @Test func theMemoStopsWhenNothingRepeats() {
        var memo = WrittenSettingsMemo()
        var buffer: [UInt8] = []
        for index in 0..<1000 {
            let settings = CueSettings(size: Double(index) / 10)
            #expect(!memo.append(settings, to: &buffer))
            memo.keep(settings, written: Array(" size:\(index)%".utf8)[...])
        }
        let last = CueSettings(size: 99.9)
        #expect(!memo.append(last, to: &buffer), "kept after the memo stopped")
        #expect(buffer.isEmpty)
    }
}
