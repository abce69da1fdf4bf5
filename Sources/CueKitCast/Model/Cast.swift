// CueKitCast owns Google Cast's text track model (TextTrackStyle, media tracks, LOAD and
// EDIT_TRACKS_INFO in Cast's JSON), its checks, and the styled WebVTT a Cast receiver renders.

import CueKit

/// Google Cast: the names shared by text track styles, media tracks and media information.
public enum Cast {
    /// The Cast media namespace that LOAD and EDIT_TRACKS_INFO messages travel on.
    public static let mediaNamespace = "urn:x-cast:com.google.cast.media"
}
