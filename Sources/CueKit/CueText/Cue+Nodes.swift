extension Cue {
    /// The cue's content as a cue text tree: ``text`` parsed with the WebVTT cue text parsing rules
    /// (W3C WebVTT, section 6.4).
    ///
    /// A method, not a property, because each call parses the text again: reading a large file
    /// builds no tree nobody asks for, and a caller that needs the tree twice keeps it.
    public func nodes() -> [CueNode] {
        CueText.nodes(from: text)
    }

    /// Stores ``CueText/markup(for:)`` of `nodes` in ``text``.
    public mutating func setNodes(_ nodes: [CueNode]) {
        text = CueText.markup(for: nodes)
    }
}
