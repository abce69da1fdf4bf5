import CueKit

extension SCCReader {
    /// How the reader reads.
    public struct Options: TrackReaderOptions, Hashable {
        /// The rate the timecodes count frames at; nil: 29.97 (30000/1001), the rate of every
        /// NTSC broadcast, for drop-frame and non-drop timecodes alike.
        public var frameRate: SCCFrameRate?
        /// The caption channel decoded (CC1 by default).
        public var channel: SCCChannel
        /// How much the reader holds at most, whatever the input.
        public var limits: Limits

        /// The defaults.
        public init() {
            self.init(frameRate: nil)
        }

        /// Creates options.
        public init(frameRate: SCCFrameRate? = nil, channel: SCCChannel = .cc1, limits: Limits = Limits()) {
            self.frameRate = frameRate
            self.channel = channel
            self.limits = limits
        }

        /// How much the reader holds: the caption grids are fixed in size, so memory is bounded by
        /// these whatever the input (a line of a million backspaces included).
        public struct Limits: Sendable, Hashable {
            /// How many diagnostics of one code are emitted; the rest are counted in one note.
            public var maximumDiagnosticsPerCode: Int

            /// Limits; the defaults suit files from anywhere.
            public init(maximumDiagnosticsPerCode: Int = 100) {
                self.maximumDiagnosticsPerCode = max(0, maximumDiagnosticsPerCode)
            }
        }
    }
}

/// The frame rate an SCC file's timecodes count at.
public enum SCCFrameRate: String, Sendable, Hashable, CaseIterable {
    /// 30000/1001 frames a second (NTSC), timecodes drop-frame (`;`) or not (`:`).
    case ntsc = "29.97"
    /// 30 frames a second exactly, timecodes non-drop.
    case thirty = "30"
    /// 25 frames a second, for files made for PAL video.
    case twentyFive = "25"
    /// 24000/1001 frames a second.
    case film = "23.976"
    /// 24 frames a second.
    case twentyFour = "24"

    /// The frames a timecode's second counts (its `ff` runs from 0 to this less one).
    public var timecodeBase: Int {
        switch self {
        case .ntsc, .thirty: 30
        case .twentyFive: 25
        case .film, .twentyFour: 24
        }
    }

    /// The rate as a fraction: frames per `denominator` seconds.
    var numerator: Int {
        switch self {
        case .ntsc: 30000
        case .thirty: 30
        case .twentyFive: 25
        case .film: 24000
        case .twentyFour: 24
        }
    }

    var denominator: Int { self == .ntsc || self == .film ? 1001 : 1 }

    /// True when drop-frame timecodes (`hh:mm:ss;ff`) count at this rate (29.97 only).
    public var allowsDropFrame: Bool { self == .ntsc }

    /// The millisecond a frame starts at, rounded to the nearest, halves to even (as ttconv,
    /// whose times are Python fractions, rounds them).
    public func milliseconds(ofFrame frame: Int) -> Int {
        let scaled = frame * 1000 * denominator
        let (quotient, remainder) = scaled.quotientAndRemainder(dividingBy: numerator)
        let twice = 2 * remainder
        return twice > numerator || (twice == numerator && quotient % 2 == 1) ? quotient + 1 : quotient
    }

    /// The first frame that starts at or after `milliseconds`.
    public func frame(atOrAfter milliseconds: Int) -> Int {
        var frame = milliseconds * numerator / (1000 * denominator)
        while self.milliseconds(ofFrame: frame) < milliseconds { frame += 1 }
        while frame > 0, self.milliseconds(ofFrame: frame - 1) >= milliseconds { frame -= 1 }
        return frame
    }
}

/// A CEA-608 caption channel. An SCC file holds the byte pairs of one field: field 1 carries CC1
/// and CC2, field 2 CC3 and CC4, each field's two channels told apart by the control codes' channel
/// bit (CEA-608-E section 8.4). CC3 and CC4 are therefore read from a file of field 2 data, as
/// its first and second channel.
public enum SCCChannel: String, Sendable, Hashable, CaseIterable {
    case cc1 = "CC1", cc2 = "CC2", cc3 = "CC3", cc4 = "CC4"

    /// The channel for a name in any case (`cc1`, `CC3`), or 1 to 4.
    public init?(name: String) {
        switch name.lowercased() {
        case "cc1", "1": self = .cc1
        case "cc2", "2": self = .cc2
        case "cc3", "3": self = .cc3
        case "cc4", "4": self = .cc4
        default: return nil
        }
    }

    /// The data channel within its field: 1 (CC1, CC3) or 2 (CC2, CC4).
    public var dataChannel: Int { self == .cc1 || self == .cc3 ? 1 : 2 }
}
