import CueKit
import Hummingbird

/// The `Content-Type` of what a Cast receiver loads, by file extension: tracks as their
/// ``TrackFormat`` names them (text with `charset=utf-8`), and the media and manifest types
/// receivers play.
enum ServedMediaTypes {
    static let byExtension: [String: MediaType] = {
        var types: [String: MediaType] = [
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
        for format in TrackFormat.allCases {
            // `.xml` files are not all TTML: they keep the generic type.
            for fileExtension in format.fileExtensions where fileExtension != "xml" {
                guard var type = MediaType(from: format.mediaType) else { continue }
                if format != .ttml, !format.isBinary { type = MediaType(type: type.type, subType: type.subType, parameter: ("charset", "utf-8")) }
                types[fileExtension] = type
            }
        }
        return types
    }()
}
