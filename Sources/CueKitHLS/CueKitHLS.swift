// CueKitHLS: HTTP Live Streaming subtitle renditions. A track (any format CueKit reads, through
// CueKitConversion's engine) cut into WebVTT segments and a media playlist, the MPEG-2 TS time
// they align to, and the multivariant playlist that names them. Files only: no network.

@_exported import CueKitConversion
