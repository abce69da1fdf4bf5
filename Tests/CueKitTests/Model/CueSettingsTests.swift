import CueKit
import Testing

@Suite struct CueSettingsTests {
    /// `isDefault` is written field by field for speed: it must say what `== CueSettings()` says.
    @Test func isDefaultIsEqualityWithTheDefaults() {
        var variants: [CueSettings] = [CueSettings()]
        func vary(_ change: (inout CueSettings) -> Void) {
            var settings = CueSettings()
            change(&settings)
            variants.append(settings)
        }
        vary { $0.vertical = .growingLeft }
        vary { $0.line = .number(-1) }
        vary { $0.line = .percentage(0) }
        vary { $0.lineAlignment = .end }
        vary { $0.position = .percentage(50) }
        vary { $0.positionAlignment = .lineLeft }
        vary { $0.size = 99.5 }
        vary { $0.alignment = .start }
        vary { $0.region = "" }
        vary { $0.region = "top" }
        vary { $0.size = 100 }
        for settings in variants {
            #expect(settings.isDefault == (settings == CueSettings()), "\(settings)")
        }
        #expect(variants.filter(\.isDefault).count == 2)
    }
}
