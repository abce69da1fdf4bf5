// CueKitWebVTT owns WebVTT: the W3C parsing algorithm on bytes (a streaming reader with the vtt-
// diagnostics of the authoring rules) and the streaming writer.

import CueKit

/// WebVTT (W3C WebVTT: The Web Video Text Tracks Format): the names shared by its reader and writer.
public enum WebVTT {
    /// The media type of WebVTT files.
    public static let mediaType = TrackFormat.webVTT.mediaType
}
