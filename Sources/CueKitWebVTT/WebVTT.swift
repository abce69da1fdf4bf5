import CueKit

/// WebVTT (W3C WebVTT: The Web Video Text Tracks Format): the names shared by its reader and writer.
public enum WebVTT {
    /// The media type of WebVTT files.
    public static let mediaType = "text/vtt"
}
