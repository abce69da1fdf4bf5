import CueKit

extension Track {
    /// The first way this track differs from `expected`, in words, or `nil` when they are equal:
    /// for test failures that say more than "not equal".
    public func firstDifference(from expected: Track) -> String? {
        if header != expected.header { return "header \(header.debugDescription) != \(expected.header.debugDescription)" }
        if regions != expected.regions { return "regions \(regions) != \(expected.regions)" }
        if stylesheets != expected.stylesheets { return "style sheets \(stylesheets) != \(expected.stylesheets)" }
        if notes != expected.notes { return "notes \(notes) != \(expected.notes)" }
        if cues.count != expected.cues.count { return "\(cues.count) cues != \(expected.cues.count)" }
        for (index, (cue, other)) in zip(cues, expected.cues).enumerated() where cue != other {
            return "cue \(index): \(cue) != \(other)"
        }
        return self == expected ? nil : "tracks differ"
    }
}
