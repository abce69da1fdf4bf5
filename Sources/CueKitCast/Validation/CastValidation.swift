import CueKit

/// The rules a Cast receiver applies to media information, beyond the shape of each field.
///
/// Each rule is a diagnostic whose message names the field by JSON path; when the value came from a
/// parsed ``JSONDocument``, pass its ``JSONLocations`` and diagnostics carry line and column too.
/// Severity follows what the receiver does: `error` when it refuses the message or the track cannot
/// work, `warning` when it works only by luck (a relative URL, a missing content type), `note` for
/// fields it ignores.
struct CastValidator {
    let locations: CastJSONLocations
    private(set) var diagnostics: [Diagnostic] = []

    init(locations: CastJSONLocations) {
        self.locations = locations
    }

    mutating func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, at path: CastJSONPath, _ message: String) {
        diagnostics.append(Diagnostic(severity, code, at: locations.nearest(path), "\(path): \(message)"))
    }

    mutating func check(_ style: TextTrackStyle, at path: CastJSONPath) {
        if style.edgeType == TextTrackStyle.EdgeType.none, style.edgeColor != nil {
            report(.note, .castIgnoredField, at: path.appending("edgeColor"), "edgeColor is ignored because edgeType is NONE")
        }
        if style.windowType == TextTrackStyle.WindowType.none, style.windowColor != nil {
            report(.note, .castIgnoredField, at: path.appending("windowColor"), "windowColor is ignored because windowType is NONE")
        }
        if let type = style.windowType, type != .roundedCorners, style.windowRoundedCornerRadius != nil {
            report(
                .note, .castIgnoredField, at: path.appending("windowRoundedCornerRadius"),
                "windowRoundedCornerRadius is ignored because windowType is \(type.rawValue), not ROUNDED_CORNERS"
            )
        }
    }

    mutating func check(_ track: MediaTrack, at path: CastJSONPath) {
        if track.trackID < 0 {
            report(
                .warning, .castBadTrackID, at: path.appending("trackId"), "track ids are expected to be 0 or more, found \(track.trackID)")
        }
        if track.subtype != nil, track.type != .text {
            report(
                .error, .castSubtypeNotText, at: path.appending("subtype"),
                "subtype describes TEXT tracks only; this track's type is \(track.type.rawValue)"
            )
        }
        if let language = track.language {
            if language.isEmpty {
                report(
                    .error, .castBadLanguage, at: path.appending("language"),
                    "language is empty; write a BCP 47 tag such as 'en' or 'pt-BR'")
            } else if !LanguageTag.isWellFormed(language) {
                let hint =
                    LanguageTag.suggestion(for: language).map { "; write '\($0)'" } ?? "; write a tag such as 'en', 'pt-BR' or 'zh-Hant'"
                report(
                    .error, .castBadLanguage, at: path.appending("language"), "'\(language)' is not a BCP 47 language tag (RFC 5646)\(hint)"
                )
            }
        } else if track.subtype == .subtitles {
            report(
                .error, .castMissingLanguage, at: path,
                "a SUBTITLES track needs a language (the receiver and sender menus match subtitles by it)"
            )
        }
        if track.name == "" {
            report(.warning, .castEmptyName, at: path.appending("name"), "name is empty: sender track menus show an empty entry")
        }
        checkContentType(of: track, at: path)
        if track.type == .text, let contentID = track.trackContentID {
            checkFetchedURL(contentID, at: path.appending("trackContentId"), what: "trackContentId")
        }
    }

    private mutating func checkContentType(of track: MediaTrack, at path: CastJSONPath) {
        let typePath = path.appending("trackContentType")
        guard let contentType = track.trackContentType else {
            if track.type == .text, track.trackContentID != nil {
                report(
                    .warning, .castMissingContentType, at: path,
                    "a side-loaded text track needs trackContentType (text/vtt for WebVTT) for the receiver to pick its parser"
                )
            }
            return
        }
        let mediaType = MediaType(contentType)
        switch track.type {
        case .text:
            if ["audio", "video", "image"].contains(mediaType.type) {
                report(
                    .error, .castContentTypeMismatch, at: typePath, "'\(contentType)' is not a text format, but the track's type is TEXT")
            } else if !MediaType.castTextFormats.contains(mediaType.essence) {
                let advice =
                    mediaType.essence == "text/srt" || mediaType.essence == "application/x-subrip"
                    ? "; convert SubRip to WebVTT (cuekit convert) and use text/vtt"
                    : "; use text/vtt (WebVTT) or application/ttml+xml (TTML)"
                report(
                    .warning, .castUnsupportedTextFormat, at: typePath,
                    "'\(contentType)' is not a text format Cast receivers render\(advice)"
                )
            }
        case .audio:
            if mediaType.type == "text" || mediaType.type == "image" {
                report(
                    .error, .castContentTypeMismatch, at: typePath, "'\(contentType)' is not an audio format, but the track's type is AUDIO"
                )
            } else if mediaType.type == "video" {
                report(
                    .warning, .castContentTypeMismatch, at: typePath, "'\(contentType)' is a video type on an AUDIO track; use audio/...")
            }
        case .video:
            if ["text", "audio", "image"].contains(mediaType.type) {
                report(
                    .error, .castContentTypeMismatch, at: typePath, "'\(contentType)' is not a video format, but the track's type is VIDEO")
            }
        }
    }

    /// A URL the receiver fetches from its own page: it must be absolute, and `https:` for an
    /// HTTPS receiver page to load it.
    mutating func checkFetchedURL(_ url: String, at path: CastJSONPath, what: String) {
        guard let scheme = Self.scheme(of: url) else {
            report(
                .warning, .castRelativeURL, at: path,
                "'\(url)' is not an absolute URL: the receiver resolves \(what) against its own page, not the sender's"
            )
            return
        }
        if scheme == "http" {
            report(
                .warning, .castInsecureURL, at: path,
                "'\(url)' is http: a receiver page served over HTTPS blocks it as mixed content; serve it over https"
            )
        }
    }

    /// The URL scheme, lower-cased (RFC 3986, section 3.1), or nil for a relative reference.
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return scheme.lowercased()
    }

    mutating func check(_ media: MediaInformation, at path: CastJSONPath) {
        if media.contentID == nil, media.contentUrl == nil, media.otherFields["entity"] == nil {
            report(.error, .castMissingContent, at: path, "media needs a contentId or a contentUrl to play")
        }
        if media.contentType == nil {
            report(.error, .castMissingContentType, at: path, "media needs a contentType (video/mp4, application/x-mpegurl...): receivers pick the player by it")
        }
        if let url = media.contentUrl {
            checkFetchedURL(url, at: path.appending("contentUrl"), what: "contentUrl")
        }
        if let duration = media.duration {
            let durationPath = path.appending("duration")
            if media.streamType == .live {
                if duration != -1 {
                    report(
                        .warning, .castBadDuration, at: durationPath,
                        "a LIVE stream's duration is -1 (or absent), found \(CastJSONValue.format(duration))")
                }
            } else if duration == -1 {
                report(.warning, .castBadDuration, at: durationPath, "duration -1 marks a live stream, but streamType is not LIVE")
            } else if duration < 0 || !duration.isFinite {
                report(
                    .error, .castBadDuration, at: durationPath,
                    "duration is in seconds and cannot be negative, found \(CastJSONValue.format(duration))")
            }
        }
        if let metadata = media.metadata {
            let metadataPath = path.appending("metadata")
            if case .object(let object) = metadata {
                if let type = object["metadataType"], type.numberValue.map({ $0 != $0.rounded() }) ?? true {
                    report(
                        .error, .castWrongType, at: metadataPath.appending("metadataType"),
                        "metadataType must be a whole number (0 GENERIC, 1 MOVIE, 2 TV_SHOW...)")
                }
            } else {
                report(.error, .castWrongType, at: metadataPath, "expected metadata (an object), found \(metadata.typeDescription)")
            }
        }
        if let tracks = media.tracks {
            let tracksPath = path.appending("tracks")
            var firstIndex: [Int: Int] = [:]
            for (index, track) in tracks.enumerated() {
                let trackPath = tracksPath.appending(index: index)
                if let earlier = firstIndex[track.trackID] {
                    report(
                        .error, .castDuplicateTrackID, at: trackPath.appending("trackId"),
                        "track id \(track.trackID) is already used by \(tracksPath.appending(index: earlier)); track ids must be unique"
                    )
                } else {
                    firstIndex[track.trackID] = index
                }
                check(track, at: trackPath)
            }
        }
        if let style = media.textTrackStyle {
            check(style, at: path.appending("textTrackStyle"))
        }
    }

    mutating func checkActiveTrackIDs(_ ids: [Int], of media: MediaInformation?, at path: CastJSONPath) {
        var seen: Set<Int> = []
        // The media's track ids, hashed once: a LOAD of 80,000 tracks and 80,000 active ids is
        // checked in linear time.
        let trackIDs = media.map { Set(($0.tracks ?? []).map(\.trackID)) }
        var knownList: String?
        for (index, id) in ids.enumerated() {
            let idPath = path.appending(index: index)
            if !seen.insert(id).inserted {
                report(.warning, .castDuplicateActiveTrack, at: idPath, "track id \(id) is listed more than once")
            }
            if let media, let trackIDs, !trackIDs.contains(id) {
                if knownList == nil { knownList = Self.describeTrackIDs(of: media) }
                report(.error, .castUnknownActiveTrack, at: idPath, "no track has id \(id); \(knownList!)")
            }
        }
    }

    /// "the media's tracks are 1, 2, 3": the first ten distinct ids, in order.
    private static func describeTrackIDs(of media: MediaInformation) -> String {
        var listed: Set<Int> = []
        let distinct = (media.tracks ?? []).map(\.trackID).filter { listed.insert($0).inserted }
        guard !distinct.isEmpty else { return "the media has no tracks" }
        let shown = distinct.prefix(10).map(String.init).joined(separator: ", ")
        return "the media's tracks are \(shown)" + (distinct.count > 10 ? " and \(distinct.count - 10) more" : "")
    }
}

/// A MIME type split into its parts (RFC 6838), lower-cased, parameters dropped.
struct MediaType {
    /// `text` in `text/vtt; charset=utf-8`.
    var type: String
    /// `text/vtt` in `text/vtt; charset=utf-8`.
    var essence: String

    init(_ text: String) {
        let essence = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        self.essence = essence.lowercased().filter { $0 != " " && $0 != "\t" }
        self.type = self.essence.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
    }

    /// The text formats Cast receivers render: WebVTT and TTML, side-loaded or in fragmented MP4.
    /// (`cast.framework.messages.CaptionMimeType`: `text/cea608`, `application/ttml+xml`,
    /// `text/vtt`, and `application/mp4` for TTML in MP4; `text/mp4` for WebVTT in MP4).
    static let castTextFormats: Set<String> = ["text/vtt", "application/ttml+xml", "application/mp4", "text/mp4", "text/cea608"]
}

extension TextTrackStyle {
    /// The receiver's rules for a style (fields it ignores because of others), as diagnostics.
    ///
    /// Field-level problems (a bad colour, a negative scale) are found when the style is decoded.
    public func validate(at path: CastJSONPath = .root, locations: CastJSONLocations = CastJSONLocations()) -> [Diagnostic] {
        var validator = CastValidator(locations: locations)
        validator.check(self, at: path)
        return validator.diagnostics
    }
}

extension MediaTrack {
    /// The receiver's rules for one track, as diagnostics.
    public func validate(at path: CastJSONPath = .root, locations: CastJSONLocations = CastJSONLocations()) -> [Diagnostic] {
        var validator = CastValidator(locations: locations)
        validator.check(self, at: path)
        return validator.diagnostics
    }
}

extension MediaInformation {
    /// The receiver's rules for media information, as diagnostics: unique track ids, content types
    /// that agree with track types, languages on subtitles, URLs a receiver can fetch...
    public func validate(at path: CastJSONPath = .root, locations: CastJSONLocations = CastJSONLocations()) -> [Diagnostic] {
        var validator = CastValidator(locations: locations)
        validator.check(self, at: path)
        return validator.diagnostics
    }
}

extension CastLoadRequest {
    /// The receiver's rules for a LOAD message: those of its media, and active track ids that name
    /// tracks of that media.
    public func validate(at path: CastJSONPath = .root, locations: CastJSONLocations = CastJSONLocations()) -> [Diagnostic] {
        var validator = CastValidator(locations: locations)
        validator.check(media, at: path.appending("media"))
        if let ids = activeTrackIDs {
            validator.checkActiveTrackIDs(ids, of: media, at: path.appending("activeTrackIds"))
        }
        return validator.diagnostics
    }
}

extension CastEditTracksInfoRequest {
    /// The receiver's rules for an EDIT_TRACKS_INFO message; with the loaded `media`, active track
    /// ids must name its tracks.
    public func validate(
        against media: MediaInformation? = nil, at path: CastJSONPath = .root, locations: CastJSONLocations = CastJSONLocations()
    ) -> [Diagnostic] {
        var validator = CastValidator(locations: locations)
        if let ids = activeTrackIDs {
            validator.checkActiveTrackIDs(ids, of: media, at: path.appending("activeTrackIds"))
        }
        if let style = textTrackStyle {
            validator.check(style, at: path.appending("textTrackStyle"))
        }
        return validator.diagnostics
    }
}
