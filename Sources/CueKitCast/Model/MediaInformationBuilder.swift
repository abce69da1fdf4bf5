#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Builds ``MediaInformation`` step by step, as `GCKMediaInformationBuilder` does on iOS: create
/// it with the content's URL, set what the media needs, then ``build()``.
///
/// A class, so that code which sets the properties of a `let` builder reads as it does with the
/// iOS SDK. It is not `Sendable`: build on one task, then pass the ``MediaInformation`` value on.
public final class MediaInformationBuilder {
    /// The content's URL (`contentUrl`, and `contentId` unless ``contentID`` is set).
    public var contentURL: URL?
    /// An identifier other than the URL (`contentId`), for receivers that look content up.
    public var contentID: String?
    /// Buffered, live or none (`streamType`); buffered unless set.
    public var streamType: MediaInformation.StreamType = .buffered
    /// The content's MIME type (`contentType`).
    public var contentType: String?
    /// Title, subtitle and images (`metadata`).
    public var metadata: MediaMetadata?
    /// The tracks (`tracks`), in the order a sender lists them.
    public var mediaTracks: [MediaTrack]?
    /// How text tracks are drawn (`textTrackStyle`).
    public var textTrackStyle: TextTrackStyle?
    /// The duration in seconds (`duration`); -1 for live streams.
    public var streamDuration: Double?
    /// Application data (`customData`).
    public var customData: CastJSONValue?

    /// A builder for the content at `contentURL`, with nothing else set.
    public init(contentURL: URL) {
        self.contentURL = contentURL
    }

    /// A builder for content a receiver knows by `contentID`.
    public init(contentID: String) {
        self.contentID = contentID
    }

    /// A builder that starts from existing media information, to change some of it.
    public init(mediaInformation: MediaInformation) {
        contentURL = mediaInformation.contentUrl.flatMap(URL.init(string:))
        contentID = mediaInformation.contentID
        streamType = mediaInformation.streamType ?? .buffered
        contentType = mediaInformation.contentType
        metadata = mediaInformation.mediaMetadata
        mediaTracks = mediaInformation.tracks
        textTrackStyle = mediaInformation.textTrackStyle
        streamDuration = mediaInformation.duration
        customData = mediaInformation.customData
    }

    /// The media information as set so far. `contentId` is ``contentID``, or else the URL;
    /// `contentUrl` is written only when it differs from `contentId`.
    public func build() -> MediaInformation {
        let url = contentURL?.absoluteString
        let identifier = contentID ?? url
        return MediaInformation(
            contentID: identifier, contentUrl: url == identifier ? nil : url, contentType: contentType, streamType: streamType,
            duration: streamDuration, metadata: metadata?.json, tracks: mediaTracks, textTrackStyle: textTrackStyle,
            customData: customData)
    }
}
