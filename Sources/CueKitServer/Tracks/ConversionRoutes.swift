import CueKitHLS
import CueKitWebVTT
import Foundation
import HTTPTypes
import Hummingbird
import Logging

extension TrackServer {
    /// `/tracks/NAME?as=vtt&style=S`, a track as one WebVTT file, and `/hls/NAME/FILE`, a track as an
    /// HLS subtitle rendition: both converted on request by ``TrackConversionCache`` and served
    /// from its folder like any file (ranges, conditional requests, gzip), under entity tags of
    /// their own.
    func addConversionRoutes(to router: Router<Context>, logger: Logger) {
        let cacheFiles = ConfinedFileSystem(root: cacheFolder.path, logger: logger)!
        let cacheMiddleware = FileMiddleware<Context, ConfinedFileSystem>(fileProvider: cacheFiles)
            .withAdditionalMediaTypes(forFileExtensions: ServedMediaTypes.byExtension)
        let conversions = self.conversions
        let files = self.files
        let root = files.root

        /// Answers `request` with `file` of `converted` (the file itself when nil).
        let serve: @Sendable (TrackConversionCache.Converted, String?, Request, Context) async throws -> Response = {
            converted, file, request, context in
            let entityTag = file.map { String(converted.entityTag.dropLast()) + "/" + $0 + "\"" } ?? converted.entityTag
            var headers = HTTPFields()
            headers[.eTag] = entityTag
            headers[HTTPField.Name("X-CueKit-Conversion")!] = converted.summary
            if request.headers[values: .ifNoneMatch].contains(where: { $0 == entityTag || $0 == "*" }) {
                return Response(status: .notModified, headers: headers)
            }
            var head = request.head
            head.path = "/" + converted.cacheName + (file.map { "/" + $0 } ?? "")
            head.headerFields[.ifNoneMatch] = nil
            head.headerFields[.ifModifiedSince] = nil
            if let ifRange = head.headerFields[.ifRange], ifRange.hasPrefix("\"") {
                // An entity tag: ours, not the cache file's.
                if ifRange == entityTag { head.headerFields[.ifRange] = nil } else { head.headerFields[.range] = nil }
            }
            var response = try await cacheMiddleware.handle(Request(head: head, body: request.body), context: context) { _, _ in
                throw HTTPError(.notFound)
            }
            for field in headers { response.headers[field.name] = field.value }
            // The cache keeps the file until the answer is sent.
            let body = response.body
            let lease = converted.lease
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                try await body.write(writer)
                withExtendedLifetime(lease) {}
            }
            return response
        }

        let track: @Sendable (Request, Context) async throws -> Response = { request, context in
            let name = context.parameters.getCatchAll().joined(separator: "/")
            do {
                let converted = try await conversions.convert(
                    name: name.removingPercentEncoding ?? name, format: request.uri.queryParameters["as"].map(String.init),
                    style: request.uri.queryParameters["style"].map(String.init))
                return try await serve(converted, nil, request, context)
            } catch let refusal as TrackConversionCache.Refusal {
                // Paths as the client names them: relative to the served folder.
                return refusal.response(hiding: root)
            }
        }
        router.get("/tracks/**", use: track)
        router.on("/tracks/**", method: .head, use: track)

        let rendition: @Sendable (Request, Context) async throws -> Response = { request, context in
            // A file of the folder under hls/ is served as a file (the file server answers what the
            // routes leave as not found).
            let asked = "hls/" + context.parameters.getCatchAll().joined(separator: "/")
            if let path = files.confinedPath(asked.removingPercentEncoding ?? asked), Self.isFile(path) {
                throw HTTPError(.notFound)
            }
            do {
                let asked = try RenditionRequest(
                    path: context.parameters.getCatchAll(), query: request.uri.queryParameters, files: files)
                let converted = try await conversions.convert(
                    name: asked.trackName, into: asked.product, style: asked.style, segmentQuery: asked.segmentQuery)
                guard access(conversions.cacheFolder + "/" + converted.cacheName + "/" + asked.file, F_OK) == 0 else {
                    throw TrackConversionCache.Refusal(
                        status: .notFound, message: "\(asked.file): the rendition of \(asked.trackName) has no such segment (\(converted.summary))")
                }
                return try await serve(converted, asked.file, request, context)
            } catch let refusal as TrackConversionCache.Refusal {
                return refusal.response(hiding: root)
            }
        }
        router.get("/hls/**", use: rendition)
        router.on("/hls/**", method: .head, use: rendition)
    }

    /// True when `path` is a regular file.
    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}

/// What `/hls/NAME/FILE?duration=D&mpegts=T&align=V&style=S` asks for: the rendition of NAME cut
/// into segments of D seconds (6 by default), mapped to the MPEG-2 time T (90 kHz ticks, 0 by
/// default) or to the first presentation time of V (a video playlist, `.ts` or fragmented MP4 in
/// the folder), with the Cast style S; and FILE of it, `subs.m3u8` or a segment.
struct RenditionRequest {
    var trackName: String
    var file: String
    var product: ConvertedProduct
    var style: String?
    /// The parameters again, resolved (`align` as its `mpegts`), for the playlist's segment URIs.
    var segmentQuery: String

    /// The shortest and longest segments a request may ask for, in milliseconds.
    static let segmentDurations = 100...3_600_000

    typealias Refusal = TrackConversionCache.Refusal

    init(path components: [Substring], query: Parameters, files: ConfinedFileSystem) throws {
        guard components.count >= 2, let last = components.last else {
            throw Refusal(status: .notFound, message: "name a track's rendition as /hls/NAME/\(ConvertedProduct.playlistName)")
        }
        let name = components.dropLast().joined(separator: "/")
        trackName = name.removingPercentEncoding ?? name
        file = String(last)
        guard file == ConvertedProduct.playlistName || Self.isSegmentName(file) else {
            throw Refusal(
                status: .notFound, message: "\(file): a rendition holds \(ConvertedProduct.playlistName) and its segments subs0.vtt, subs1.vtt…")
        }
        var segmentDuration = HLSSegmentOptions().segmentDuration
        var parts: [String] = []
        if let text = query["duration"] {
            guard let seconds = Double(text), seconds.isFinite,
                case let milliseconds = Int((seconds * 1000).rounded()), Self.segmentDurations.contains(milliseconds)
            else {
                throw Refusal(status: .badRequest, message: "duration=\(text): a segment lasts from 0.1 to 3600 seconds")
            }
            segmentDuration = milliseconds
            parts.append("duration=" + HLSMediaPlaylistText.seconds(milliseconds))
        }
        var mpegTimestamp: UInt64 = 0
        switch (query["mpegts"], query["align"]) {
        case (.some, .some):
            throw Refusal(status: .badRequest, message: "mpegts and align both set the MPEG-2 time: give one")
        case (.some(let text), nil):
            guard let ticks = UInt64(text), ticks < WebVTTTimestampMap.mpegTimestampModulus else {
                throw Refusal(status: .badRequest, message: "mpegts=\(text): a 90 kHz time from 0 to 2^33 - 1")
            }
            mpegTimestamp = ticks
        case (nil, .some(let video)):
            let videoName = String(video)
            guard let path = files.confinedPath(videoName.removingPercentEncoding ?? videoName) else {
                throw Refusal(status: .notFound, message: "align=\(videoName): no such file in the served folder")
            }
            do {
                mpegTimestamp = try HLSMediaAlignment.mpegTimestamp(alignedTo: path)
            } catch {
                throw Refusal(status: .unprocessableContent, message: "align=\(videoName): \(error)")
            }
        case (nil, nil):
            break
        }
        if mpegTimestamp != 0 { parts.append("mpegts=\(mpegTimestamp)") }
        if let style = query["style"], !style.isEmpty {
            self.style = String(style)
            parts.append("style=" + (String(style).addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""))
        }
        product = .hlsRendition(segmentDuration: segmentDuration, mpegTimestamp: mpegTimestamp)
        segmentQuery = parts.joined(separator: "&")
    }

    /// `subs` and a number, `.vtt`: the names ``HLSSegmenter`` gives segments here.
    static func isSegmentName(_ name: String) -> Bool {
        guard name.hasPrefix("subs"), name.hasSuffix(".vtt") else { return false }
        let number = name.dropFirst(4).dropLast(4)
        return !number.isEmpty && number.count <= 9 && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
    }

    /// RFC 3986's unreserved characters: everything else in a style is percent-encoded.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
