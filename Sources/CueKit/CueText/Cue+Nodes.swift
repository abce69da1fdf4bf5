extension Cue {
    /// The cue's content as a cue text tree: ``text`` parsed with the WebVTT cue text parsing rules
    /// (W3C WebVTT, section 6.4) each time it is read, so that reading a large file builds no tree
    /// nobody asks for.
    ///
    /// Setting it stores ``CueText/markup(for:)`` of the new tree in ``text``.
    public var nodes: [CueNode] {
        get { CueText.nodes(from: text) }
        set { text = CueText.markup(for: newValue) }
    }
}
