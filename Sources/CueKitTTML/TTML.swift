import CueKit

/// TTML (Timed Text Markup Language 1 and 2, and the profiles built on them): shared names.
public enum TTML {
    /// The TTML namespace.
    public static let namespace = "http://www.w3.org/ns/ttml"
}
