import CueKit

/// How ``TTMLWriter`` writes: the profile the document conforms to, how times are written, and
/// the document's language.
public struct TTMLWriterOptions: Sendable, Hashable {
    /// The profile the document is written for.
    public var profile: TTMLProfile
    /// Times as frames (`hh:mm:ss:ff` with `ttp:frameRate`); nil for milliseconds
    /// (`hh:mm:ss.fff`), the default. EBU-TT-D has no frames: it always writes milliseconds.
    public var frameRate: FrameRate?
    /// The document's `xml:lang` (BCP 47); `und` (undetermined) unless given.
    public var language: String
    /// How many bytes of body are kept in memory before the rest goes to an unlinked temporary
    /// file: the head (styles, regions, agents) is known only once the last cue is written, and is
    /// written first, so the body waits. Memory stays bounded whatever the track's length.
    public var bodyMemoryLimit: Int
    /// What a cue's inner timestamps (`<00:00:13.000>`) become.
    public var innerTimestamps: InnerTimestamps
    /// The look cues have before any style of the track applies.
    public var look: Look

    /// Creates options; the defaults write IMSC 1.1 Text with millisecond times.
    public init(
        profile: TTMLProfile = .imsc11, frameRate: FrameRate? = nil, language: String = "und", bodyMemoryLimit: Int = 4 << 20,
        innerTimestamps: InnerTimestamps = .wholeCue, look: Look = .webVTT
    ) {
        self.profile = profile
        self.frameRate = frameRate
        self.language = language
        self.bodyMemoryLimit = bodyMemoryLimit
        self.innerTimestamps = innerTimestamps
        self.look = look
    }

    /// The look cues start from. A WebVTT player draws cue text white, in sans-serif, on a backdrop
    /// of 80% black (WebVTT section 7.4); a TTML player draws it on nothing, in a font of its
    /// choosing. The track's `::cue` rules (a Cast style's included) are written over this look.
    public enum Look: String, Sendable, Hashable, CaseIterable {
        /// WebVTT's look, written as the style of every paragraph's content: what the track shows.
        case webVTT = "webvtt"
        /// TTML's own initial look: only the track's styles are written.
        case ttml

        /// The rows of the document's cell grid (`ttp:cellResolution`), whose height is TTML's
        /// default font size: 20 for WebVTT's look (5vh, WebVTT's cue font size), TTML's default
        /// 15 otherwise.
        var cellRows: Int { self == .webVTT ? 20 : 15 }
    }

    /// What inner timestamps become. In WebVTT a timestamp only switches the `:past` and `:future`
    /// styles of the text around it: every player shows the whole cue for its whole time.
    public enum InnerTimestamps: String, Sendable, Hashable, CaseIterable {
        /// The whole text for the whole cue, as WebVTT players show it; the timestamps are left out.
        case wholeCue = "whole-cue"
        /// Karaoke: the text after a timestamp is a span timed from it, shown from then on.
        case paintOn = "paint-on"
    }

    /// A frame rate for frame-based times: a whole number of frames per second, times a
    /// multiplier for the NTSC rates (`29.97` is 30 × 1000/1001).
    public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
        /// `ttp:frameRate`: whole frames per second.
        public var frames: Int
        /// `ttp:frameRateMultiplier`, as numerator and denominator (1/1 for none).
        public var numerator: Int
        public var denominator: Int

        /// Creates a rate of `frames` × `numerator`/`denominator` per second.
        public init(frames: Int, numerator: Int = 1, denominator: Int = 1) {
            precondition(frames > 0 && numerator > 0 && denominator > 0, "a frame rate is positive")
            self.frames = frames
            self.numerator = numerator
            self.denominator = denominator
        }

        /// Reads `25`, `30`, `29.97`, `23.976`, `59.94` (the NTSC rates, 1000/1001 of the next whole
        /// rate) or `30000/1001`; nil for anything else.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 2, let top = Int(parts[0]), let bottom = Int(parts[1]), top > 0, bottom > 0 {
                if top % bottom == 0 {
                    self.init(frames: top / bottom)
                } else if bottom == 1001, top % 1000 == 0 {
                    self.init(frames: top / 1000, numerator: 1000, denominator: 1001)
                } else {
                    return nil
                }
                return
            }
            if let whole = Int(text), whole > 0, whole <= 1000 {
                self.init(frames: whole)
                return
            }
            guard let value = Double(text), value > 0, value <= 1000 else { return nil }
            let next = value.rounded(.up)
            guard abs(next * 1000 / 1001 - value) < 0.005 else { return nil }
            self.init(frames: Int(next), numerator: 1000, denominator: 1001)
        }

        /// Frames per second, as a fraction.
        var perSecond: Double { Double(frames) * Double(numerator) / Double(denominator) }

        public var description: String {
            numerator == 1 && denominator == 1 ? "\(frames)" : "\(frames * numerator)/\(denominator)"
        }
    }
}
