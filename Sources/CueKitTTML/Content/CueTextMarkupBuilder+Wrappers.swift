import CueKit

/// The TTML reader writes its cues' markup through core's one markup writer: a wrapper (a class
/// span, `<i>`, `<lang>`, ruby) opens and closes as the tag of its kind.
extension CueTextMarkupBuilder {
    /// `<tag.class1.class2 annotation>` for `wrapper`.
    mutating func open(_ wrapper: TTMLParagraph.Wrapper) {
        openTag(wrapper.kind.tagName, classes: wrapper.classes, annotation: wrapper.kind.annotation)
    }

    /// `</tag>` for `wrapper`.
    mutating func close(_ wrapper: TTMLParagraph.Wrapper) {
        closeTag(wrapper.kind.tagName)
    }
}
