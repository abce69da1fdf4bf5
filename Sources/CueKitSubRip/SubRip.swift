import CueKit

/// SubRip (`.srt`): the names shared by its reader and writer.
public enum SubRip {
    /// The media type SubRip files are served with.
    public static let mediaType = "application/x-subrip"
}
