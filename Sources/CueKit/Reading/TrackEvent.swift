/// One step of a track as a streaming reader finds it, or as a streaming writer takes it.
///
/// Readers emit events in file order, and each as soon as it is complete, so that a converter can
/// write cue by cue with memory bounded by one block. ``Track/events`` gives a whole track in the
/// order writers expect: header, notes before the first cue, regions, style sheets, then cues with
/// the notes between them.
public enum TrackEvent: Sendable, Hashable {
    /// The header text (see ``Track/header``); always the first event of a track.
    case header(String)
    /// A `REGION` definition.
    case region(CueRegion)
    /// A `STYLE` block.
    case stylesheet(CueStylesheet)
    /// A `NOTE` comment; its ``Note/cueIndex`` counts the cues emitted before it.
    case note(CueNote)
    /// A complete cue.
    case cue(Cue)
    /// A problem found while reading, at the point it was found.
    case diagnostic(Diagnostic)
}

extension Track {
    /// The track as the events a writer takes, in the order WebVTT writes blocks: header, notes
    /// anchored before the first cue, regions, style sheets, then each cue preceded by its notes,
    /// then notes after the last cue.
    public var events: [TrackEvent] {
        var result: [TrackEvent] = [.header(header)]
        result.reserveCapacity(1 + notes.count + regions.count + stylesheets.count + cues.count)
        let sortedNotes = notes.enumerated().sorted { ($0.element.cueIndex, $0.offset) < ($1.element.cueIndex, $1.offset) }.map(\.element)
        var noteIndex = sortedNotes.startIndex
        func appendNotes(upTo cueIndex: Int) {
            while noteIndex < sortedNotes.endIndex, sortedNotes[noteIndex].cueIndex <= cueIndex {
                result.append(.note(sortedNotes[noteIndex]))
                noteIndex += 1
            }
        }
        appendNotes(upTo: 0)
        result += regions.map(TrackEvent.region)
        result += stylesheets.map(TrackEvent.stylesheet)
        for (index, cue) in cues.enumerated() {
            appendNotes(upTo: index)
            result.append(.cue(cue))
        }
        appendNotes(upTo: Int.max)
        return result
    }
}
