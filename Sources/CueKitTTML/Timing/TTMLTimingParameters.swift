/// The `ttp:` parameters of a document that govern how its time expressions are read (TTML2
/// section 7.2), with their defaults.
struct TTMLTimingParameters: Sendable {
    /// `ttp:timeBase` (TTML2 section 7.2.11).
    enum TimeBase: String, Sendable, Hashable {
        /// Times are positions on the media timeline (the default).
        case media
        /// Times are SMPTE time codes, labels of frames (SMPTE ST 12-1).
        case smpte
        /// Times are times of day on a real-world clock (`ttp:clockMode` local, gps or utc).
        case clock
    }

    /// `ttp:dropMode` (TTML2 section 7.2.4): which SMPTE frame labels are skipped.
    enum DropMode: String, Sendable, Hashable {
        /// Every label counts a frame.
        case nonDrop
        /// NTSC drop-frame: labels 00 and 01 are skipped at the start of every minute except
        /// minutes 00, 10, 20, 30, 40 and 50.
        case dropNTSC
        /// PAL-M drop-frame: labels 00 to 03 are skipped at the start of every even minute except
        /// minutes 00, 20 and 40.
        case dropPAL
    }

    /// `ttp:markerMode` (TTML2 section 7.2.7).
    enum MarkerMode: String, Sendable, Hashable {
        /// Time codes increase continuously and can be computed with.
        case continuous
        /// Time codes are labels only.
        case discontinuous
    }

    var timeBase = TimeBase.media
    /// `ttp:frameRate`: 30 unless specified (TTML2 section 7.2.5).
    var frameRate: Int64 = 30
    /// True when `ttp:frameRate` was specified (it changes the default tick rate).
    var frameRateSpecified = false
    /// `ttp:frameRateMultiplier` as numerator and denominator: 1/1 unless specified.
    var frameRateMultiplier: (numerator: Int64, denominator: Int64) = (1, 1)
    /// `ttp:subFrameRate`: 1 unless specified.
    var subFrameRate: Int64 = 1
    /// `ttp:tickRate` when specified.
    var specifiedTickRate: Int64?
    var dropMode = DropMode.nonDrop
    var markerMode = MarkerMode.continuous

    /// The effective frame rate in frames per second, as numerator and denominator:
    /// `frameRate × frameRateMultiplier` (TTML2 section 7.2.6).
    var effectiveFrameRate: (numerator: Int64, denominator: Int64) {
        (frameRate * frameRateMultiplier.numerator, frameRateMultiplier.denominator)
    }

    /// The tick rate in ticks per second, as numerator and denominator. TTML2 section 7.2.10: when
    /// `ttp:tickRate` is not specified, it is the effective frame rate times the sub-frame rate
    /// if a frame rate is specified (ticks are then sub-frames), and 1 otherwise.
    var tickRate: (numerator: Int64, denominator: Int64) {
        if let specifiedTickRate { return (specifiedTickRate, 1) }
        if frameRateSpecified {
            let rate = effectiveFrameRate
            return (rate.numerator * subFrameRate, rate.denominator)
        }
        return (1, 1)
    }

    /// The duration of `count` frames: `count / effectiveFrameRate` seconds.
    func frames(_ count: TTMLTime) -> TTMLTime {
        let rate = effectiveFrameRate
        return count.scaled(by: rate.denominator, over: rate.numerator)
    }

    /// The duration of `count` ticks.
    func ticks(_ count: TTMLTime) -> TTMLTime {
        let rate = tickRate
        return count.scaled(by: rate.denominator, over: rate.numerator)
    }
}
