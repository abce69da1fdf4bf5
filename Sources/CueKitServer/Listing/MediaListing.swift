import CueKit
import CueKitCast
import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// `GET /media.json`: what the served folder holds that a sender can load, so that the sender page
/// offers files that exist instead of names to guess.
///
/// ```json
/// {"media": [{"name": "movie.webm", "url": "/movie.webm", "contentType": "video/webm"}],
///  "tracks": [{"name": "movie.en.srt", "url": "/tracks/movie.en.srt?as=vtt", "format": "SubRip",
///              "contentType": "text/vtt", "language": "en", "kind": "SUBTITLES"}],
///  "styles": [{"name": "style.json", "url": "/style.json"}],
///  "truncated": false, "limits": {"files": 500, "depth": 4}}
/// ```
///
/// Media are video and audio files by extension; tracks are WebVTT, SubRip and TTML files
/// (`.xml` files are left out: most are not TTML), each offered by the URL that plays on a
/// receiver, `/tracks/NAME?as=vtt`, which answers WebVTT whatever the format; styles are JSON files
/// that are a valid Cast `TextTrackStyle`. Names are paths inside the folder; URLs are
/// percent-encoded paths on this server. Hidden names and links that leave the folder are
/// skipped, as the file server skips them. Each folder is listed by name, a file before its
/// variants (``precedes(_:_:)``), so that the sender page's first track is the plain one. The
/// walk is bounded: at most ``maximumFiles`` files listed, folders ``maximumDepth`` levels deep;
/// when it stops early, `truncated` is true and `reason` says where.
struct MediaListing: Sendable {
    /// The path the listing answers at.
    static let path = "/media.json"
    /// The most files listed (media, tracks and styles together).
    static let maximumFiles = 500
    /// The deepest folder level looked into (the served folder is level 0).
    static let maximumDepth = 4
    /// The most folder entries looked at, listed or not.
    static let maximumEntriesScanned = 20_000
    /// The largest JSON file read as a possible style.
    static let maximumStyleBytes = 16_384

    /// Media content types by file extension: what a Cast receiver plays.
    static let mediaTypes: [String: String] = [
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "mkv": "video/x-matroska",
        "ts": "video/mp2t", "m3u8": "application/x-mpegurl", "mpd": "application/dash+xml", "mp3": "audio/mpeg", "m4a": "audio/mp4",
        "aac": "audio/aac", "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac", "wav": "audio/wav",
    ]

    let files: ConfinedFileSystem

    /// What one walk found.
    struct Found {
        var media: [CastJSONValue] = []
        var tracks: [CastJSONValue] = []
        var styles: [CastJSONValue] = []
        var count: Int { media.count + tracks.count + styles.count }
        var reasons: [String] = []
        var scanned = 0
    }

    /// The listing as JSON.
    func json() -> CastJSONValue {
        var found = Found()
        var visited: Set<String> = []
        walk(relative: "", depth: 0, into: &found, visited: &visited)
        var object = CastJSONObject()
        object["media"] = .array(found.media)
        object["tracks"] = .array(found.tracks)
        object["styles"] = .array(found.styles)
        object["truncated"] = .bool(!found.reasons.isEmpty)
        if !found.reasons.isEmpty { object["reason"] = .string(found.reasons.joined(separator: "; ")) }
        object["limits"] = .object(["files": .number(Double(Self.maximumFiles)), "depth": .number(Double(Self.maximumDepth))])
        return .object(object)
    }

    private func walk(relative: String, depth: Int, into found: inout Found, visited: inout Set<String>) {
        guard let folder = files.confinedPath(relative), visited.insert(folder).inserted,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return }
        var subfolders: [String] = []
        for name in names.sorted(by: Self.precedes) where !name.hasPrefix(".") {
            found.scanned += 1
            if found.scanned > Self.maximumEntriesScanned {
                note("the walk stops after \(Self.maximumEntriesScanned) folder entries", in: &found)
                return
            }
            let path = relative.isEmpty ? name : relative + "/" + name
            guard let resolved = files.confinedPath(path) else { continue }
            var info = stat()
            guard stat(resolved, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                subfolders.append(path)
                continue
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else { continue }
            guard let entry = entry(path: path, resolved: resolved, size: Int(info.st_size)) else { continue }
            guard found.count < Self.maximumFiles else {
                note("the listing stops at \(Self.maximumFiles) files", in: &found)
                return
            }
            switch entry {
            case .media(let value): found.media.append(value)
            case .track(let value): found.tracks.append(value)
            case .style(let value): found.styles.append(value)
            }
        }
        for subfolder in subfolders {
            guard depth < Self.maximumDepth else {
                note("folders deeper than \(Self.maximumDepth) levels are not listed", in: &found)
                return
            }
            walk(relative: subfolder, depth: depth + 1, into: &found, visited: &visited)
            if found.count >= Self.maximumFiles || found.scanned > Self.maximumEntriesScanned { return }
        }
    }

    /// Names by their stem first, so that a file comes before its variants (`movie.en.vtt`, then
    /// `movie.en.styled.vtt`), then by the whole name.
    static func precedes(_ left: String, _ right: String) -> Bool {
        func stem(_ name: String) -> Substring { name.lastIndex(of: ".").map { name[..<$0] } ?? name[...] }
        let (leftStem, rightStem) = (stem(left), stem(right))
        return leftStem != rightStem ? leftStem < rightStem : left < right
    }

    private func note(_ reason: String, in found: inout Found) {
        if !found.reasons.contains(reason) { found.reasons.append(reason) }
    }

    private enum Entry {
        case media(CastJSONValue)
        case track(CastJSONValue)
        case style(CastJSONValue)
    }

    /// The entry for a file, or nil when it is none of the three kinds.
    private func entry(path: String, resolved: String, size: Int) -> Entry? {
        let fileExtension = path.split(separator: ".").count > 1 ? path.split(separator: ".").last!.lowercased() : ""
        let url = "/" + Self.escaped(path)
        if let type = Self.mediaTypes[fileExtension] {
            return .media(.object(["name": .string(path), "url": .string(url), "contentType": .string(type)]))
        }
        if fileExtension != "xml", let format = TrackFormat(fileExtension: fileExtension) {
            let hints = CaptionFileHints(fileName: path)
            var object: CastJSONObject = [
                "name": .string(path), "url": .string("/tracks/" + Self.escaped(path) + "?as=vtt"), "format": .string(format.displayName),
                "contentType": "text/vtt", "kind": .string((hints.kind ?? .subtitles).rawValue),
            ]
            if let language = hints.language { object["language"] = .string(language) }
            return .track(.object(object))
        }
        if fileExtension == "json", size <= Self.maximumStyleBytes, let data = FileManager.default.contents(atPath: resolved) {
            let result = CastMessage.check([UInt8](data))
            guard case .style = result.message, result.isValid else { return nil }
            return .style(.object(["name": .string(path), "url": .string(url)]))
        }
        return nil
    }

    /// A path inside the folder as a URL path: each component percent-encoded.
    static func escaped(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#;")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}

/// Answers ``MediaListing/path`` ahead of the file server, so that a file of that name in the
/// folder cannot hide the listing.
struct MediaListingMiddleware<Context: RequestContext>: RouterMiddleware {
    let listing: MediaListing

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path == MediaListing.path, request.method == .get || request.method == .head else {
            return try await next(request, context)
        }
        let listing = self.listing
        let text = try await NIOThreadPool.singleton.runIfActive { listing.json().serialized(.compact) + "\n" }
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
