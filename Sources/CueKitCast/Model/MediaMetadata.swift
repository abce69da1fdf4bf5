import CueKit

/// Title, subtitle and images of a media item, as Cast's `metadata` member carries them
/// (`chrome.cast.media.MovieMediaMetadata` and its siblings, `GCKMediaMetadata` on iOS).
///
/// On the wire it is a JSON object whose `metadataType` number says which fields it may hold;
/// the typed keys are the ones every type shares. Other members are kept in ``otherFields`` so a
/// sender passes through what it does not know.
public struct MediaMetadata: Sendable, Hashable {
    /// What the media is (`metadataType`), which decides the fields a receiver shows.
    public var metadataType: MetadataType
    /// The title (`title`).
    public var title: String?
    /// The subtitle (`subtitle`): a movie's studio line, a show's episode title.
    public var subtitle: String?
    /// Posters and thumbnails (`images`), largest first as Cast suggests.
    public var images: [Image]
    /// Members with no typed key here (`studio`, `releaseDate`, `seriesTitle`...), in document order.
    public var otherFields: CastJSONObject

    /// Empty metadata of a type; fill it through the typed properties or ``setString(_:forKey:)``.
    public init(metadataType: MetadataType = .generic) {
        self.metadataType = metadataType
        images = []
        otherFields = CastJSONObject()
    }

    /// `MetadataType`: Cast's numbers, which the JSON carries as they are.
    public enum MetadataType: Int, Sendable, Hashable, CaseIterable {
        /// Anything (`GenericMediaMetadata`).
        case generic = 0
        /// A film (`MovieMediaMetadata`).
        case movie = 1
        /// An episode of a series (`TvShowMediaMetadata`).
        case tvShow = 2
        /// A song (`MusicTrackMediaMetadata`).
        case musicTrack = 3
        /// A picture (`PhotoMediaMetadata`).
        case photo = 4
        /// An audiobook chapter (`AudiobookChapterMediaMetadata`).
        case audiobookChapter = 5
        /// An application's own type.
        case user = 100
    }

    /// A string field's wire name, typed so that a misspelt key does not compile.
    public struct Key: RawRepresentable, Sendable, Hashable {
        /// The JSON member's name.
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `title`.
        public static let title = Key(rawValue: "title")
        /// `subtitle`.
        public static let subtitle = Key(rawValue: "subtitle")
        /// `studio` (movies).
        public static let studio = Key(rawValue: "studio")
        /// `seriesTitle` (TV shows).
        public static let seriesTitle = Key(rawValue: "seriesTitle")
        /// `artist` (music).
        public static let artist = Key(rawValue: "artist")
        /// `albumName` (music).
        public static let albumName = Key(rawValue: "albumName")
        /// `releaseDate`, an ISO 8601 date.
        public static let releaseDate = Key(rawValue: "releaseDate")
    }

    /// An image (`chrome.cast.Image`): its URL and, when known, its size in pixels.
    public struct Image: Sendable, Hashable {
        /// Where the receiver fetches it (`url`).
        public var url: String
        /// Its width in pixels (`width`).
        public var width: Int?
        /// Its height in pixels (`height`).
        public var height: Int?

        /// An image at `url`.
        public init(url: String, width: Int? = nil, height: Int? = nil) {
            self.url = url
            self.width = width
            self.height = height
        }
    }

    /// Sets a string field; nil removes it.
    public mutating func setString(_ value: String?, forKey key: Key) {
        switch key {
        case .title: title = value
        case .subtitle: subtitle = value
        default: otherFields[key.rawValue] = value.map { .string($0) }
        }
    }

    /// A string field, if set.
    public func string(forKey key: Key) -> String? {
        switch key {
        case .title: title
        case .subtitle: subtitle
        default: otherFields[key.rawValue]?.stringValue
        }
    }

    /// Adds an image after those already listed.
    public mutating func addImage(_ image: Image) {
        images.append(image)
    }

    /// The metadata as Cast JSON: `metadataType` first, then the set fields, then ``otherFields``.
    public var json: CastJSONValue {
        var object = CastJSONObject()
        object["metadataType"] = .number(Double(metadataType.rawValue))
        object["title"] = title.map { .string($0) }
        object["subtitle"] = subtitle.map { .string($0) }
        if !images.isEmpty {
            object["images"] = .array(
                images.map { image in
                    var entry = CastJSONObject()
                    entry["url"] = .string(image.url)
                    entry["width"] = image.width.map { .number(Double($0)) }
                    entry["height"] = image.height.map { .number(Double($0)) }
                    return .object(entry)
                })
        }
        for (key, value) in otherFields where object[key] == nil { object[key] = value }
        return .object(object)
    }

    /// Reads Cast's `metadata` object; nil when it is not an object or its `metadataType` is not
    /// one of Cast's numbers. Images without a string `url` are left out.
    public init?(json: CastJSONValue) {
        guard let object = json.objectValue else { return nil }
        let number = object["metadataType"]?.numberValue ?? 0
        guard let rawType = Int(exactly: number), let type = MetadataType(rawValue: rawType) else { return nil }
        self.init(metadataType: type)
        title = object["title"]?.stringValue
        subtitle = object["subtitle"]?.stringValue
        images = (object["images"]?.arrayValue ?? []).compactMap { value in
            guard let entry = value.objectValue, let url = entry["url"]?.stringValue else { return nil }
            return Image(
                url: url, width: entry["width"]?.numberValue.flatMap { Int(exactly: $0) },
                height: entry["height"]?.numberValue.flatMap { Int(exactly: $0) })
        }
        for (key, value) in object where !["metadataType", "title", "subtitle", "images"].contains(key) {
            otherFields[key] = value
        }
    }
}

extension MediaInformation {
    /// ``metadata`` read as typed ``MediaMetadata``; nil when absent or not Cast's shape.
    public var mediaMetadata: MediaMetadata? {
        get { metadata.flatMap(MediaMetadata.init(json:)) }
        set { metadata = newValue?.json }
    }
}
