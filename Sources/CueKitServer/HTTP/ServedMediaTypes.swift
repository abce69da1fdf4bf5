import Hummingbird

/// The `Content-Type` of what a Cast receiver loads, by file extension: tracks in every format
/// CueKit reads, and the media and manifest types receivers play.
enum ServedMediaTypes {
    static let byExtension: [String: MediaType] = [
        "vtt": MediaType(type: .text, subType: "vtt", parameter: ("charset", "utf-8")),
        "webvtt": MediaType(type: .text, subType: "vtt", parameter: ("charset", "utf-8")),
        "srt": MediaType(type: .application, subType: "x-subrip", parameter: ("charset", "utf-8")),
        "ttml": MediaType(type: .application, subType: "ttml+xml"),
        "dfxp": MediaType(type: .application, subType: "ttml+xml"),
        "xml": MediaType(type: .application, subType: "xml"),
        "mp4": MediaType(type: .video, subType: "mp4"),
        "m4v": MediaType(type: .video, subType: "mp4"),
        "m4a": MediaType(type: .audio, subType: "mp4"),
        "m4s": MediaType(type: .video, subType: "iso.segment"),
        "webm": MediaType(type: .video, subType: "webm"),
        "mkv": MediaType(type: .video, subType: "x-matroska"),
        "ts": MediaType(type: .video, subType: "mp2t"),
        "m3u8": MediaType(type: .application, subType: "vnd.apple.mpegurl"),
        "mpd": MediaType(type: .application, subType: "dash+xml"),
        "json": MediaType(type: .application, subType: "json", parameter: ("charset", "utf-8")),
    ]
}
