import CueKit
import CueKitTestSupport
import Testing

@testable import CueKitWebVTT

/// Settings written on the stack (``WebVTTTimingLineText/appendCommonSettings(_:to:writesRegion:)``)
/// against the writer's piece-by-piece form, on random settings with whole numbers and near them.
@Suite struct WebVTTTimingLineTextTests {
    /// Values whole and not, in range and out, and the odd ones (a negative zero, infinities, NaN).
    static let percentages: [Double] = [0, 1, 9, 10, 50, 99, 100, 12.5, 0.1, -0.0, -1, 100.5, 101, 250, .nan, .infinity]
    static let lineNumbers: [Double] = [
        0, -0.0, 1, -1, 3, -12, 99, 100, 123_456, -9_007_199_254_740_991, 9_007_199_254_740_992, 1.5, -2.25, .nan, -.infinity,
    ]
    static let regions: [String?] = [nil, nil, nil, "r1", "top", "undefined", "", String(repeating: "x", count: 300)]

    static func randomSettings(_ random: inout SeededRandom) -> CueSettings {
        var settings = CueSettings()
        if Bool.random(using: &random) { settings.vertical = CueSettings.Vertical.allCases.randomElement(using: &random)! }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: settings.line = .auto
        case 1: settings.line = .number(lineNumbers.randomElement(using: &random)!)
        default: settings.line = .percentage(percentages.randomElement(using: &random)!)
        }
        if Int.random(in: 0..<3, using: &random) == 0 {
            settings.lineAlignment = CueSettings.LineAlignment.allCases.randomElement(using: &random)!
        }
        if Bool.random(using: &random) { settings.position = .percentage(percentages.randomElement(using: &random)!) }
        if Int.random(in: 0..<3, using: &random) == 0 {
            settings.positionAlignment = CueSettings.PositionAlignment.allCases.randomElement(using: &random)!
        }
        if Bool.random(using: &random) { settings.size = percentages.randomElement(using: &random)! }
        if Bool.random(using: &random) { settings.alignment = CueSettings.TextAlignment.allCases.randomElement(using: &random)! }
        settings.region = regions.randomElement(using: &random)!
        return settings
    }

    @Test func theStackWrittenSettingsAreThePieceByPieceOnes() {
        var random = SeededRandom(seed: 0x5E7)
        let written: Set<String> = ["r1", "top", String(repeating: "x", count: 300)]
        func writesRegion(_ region: String) -> Bool { written.contains(region) }
        var taken = 0, refused = 0
        for _ in 0..<20_000 {
            let settings = Self.randomSettings(&random)
            var stack: [UInt8] = [0x41]
            let took = WebVTTTimingLineText.appendCommonSettings(settings, to: &stack, writesRegion: writesRegion)
            var pieces: [UInt8] = [0x41]
            var issues = 0
            WebVTTTimingLineText.appendSettingsPieceByPiece(settings, to: &pieces, writesRegion: writesRegion) { _ in issues += 1 }
            if took {
                taken += 1
                #expect(stack == pieces && issues == 0, "\(settings)")
            } else {
                refused += 1
                #expect(stack == [0x41], "\(settings)")
                // Refused only for something to tell, a number with a fraction or from 2^53 on,
                // or no room.
                let hasFraction = [settings.size, Self.value(settings.line), Self.value(settings.position)].contains {
                    $0.isFinite && ($0 != $0.rounded(.towardZero) || $0.magnitude >= 9_007_199_254_740_992)
                }
                #expect(issues > 0 || hasFraction || (settings.region?.utf8.count ?? 0) > 200, "\(settings)")
            }
        }
        #expect(taken > 2_000 && refused > 2_000)
    }

    static func value(_ line: CueSettings.Line) -> Double {
        switch line {
        case .auto: 0
        case .number(let number): number
        case .percentage(let value): value
        }
    }

    static func value(_ position: CueSettings.Position) -> Double {
        if case .percentage(let value) = position { return value }
        return 0
    }
}
