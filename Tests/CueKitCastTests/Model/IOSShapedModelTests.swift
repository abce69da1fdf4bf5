import CueKit
import CueKitCast
import Foundation
import Testing

/// The model's initialisers and builder in the iOS SDK's shape write Cast's wire JSON.
@Suite struct IOSShapedModelTests {
    @Test func aTrackMadeWithTheIOSLabelsIsTheSameTrack() {
        let track = MediaTrack(
            identifier: 3, contentIdentifier: "https://example.com/en.vtt", contentType: "text/vtt", type: .text, textSubtype: .captions,
            name: "English", languageCode: "en", customData: nil)
        #expect(
            track
                == MediaTrack(
                    trackID: 3, type: .text, subtype: .captions, trackContentID: "https://example.com/en.vtt", trackContentType: "text/vtt",
                    name: "English", language: "en"))
        #expect(track.json.serialized(.compact).contains(#""trackId":3,"type":"TEXT","subtype":"CAPTIONS""#))
    }

    @Test func metadataWritesCastsTypeNumberTitleAndImagesAndReadsThemBack() throws {
        var metadata = MediaMetadata(metadataType: .movie)
        metadata.setString("Night Train", forKey: .title)
        metadata.setString("Studio North", forKey: .studio)
        metadata.addImage(.init(url: "https://example.com/poster.jpg", width: 480, height: 720))
        #expect(metadata.title == "Night Train")
        #expect(metadata.string(forKey: .studio) == "Studio North")
        #expect(
            metadata.json.serialized(.compact)
                == #"{"metadataType":1,"title":"Night Train","images":[{"url":"https://example.com/poster.jpg","width":480,"height":720}],"studio":"Studio North"}"#
        )
        #expect(MediaMetadata(json: metadata.json) == metadata)
        #expect(MediaMetadata(json: ["metadataType": 7]) == nil)
        #expect(MediaMetadata(json: "a title") == nil)
    }

    @Test func theBuilderSetsWhatTheGuideSetsAndNoneIsAStreamType() {
        let builder = MediaInformationBuilder(contentURL: URL(string: "https://example.com/film.mp4")!)
        builder.streamType = .none
        builder.contentType = "video/mp4"
        builder.metadata = MediaMetadata(metadataType: .movie)
        builder.mediaTracks = [MediaTrack(trackID: 1, type: .text, subtype: .captions)]
        let media = builder.build()
        #expect(media.contentID == "https://example.com/film.mp4")
        #expect(media.contentUrl == nil)
        #expect(media.streamType == MediaInformation.StreamType.none)
        #expect(media.json.objectValue?["streamType"] == "NONE")
        #expect(media.mediaMetadata?.metadataType == .movie)
        #expect(media.tracks?.count == 1)
        // A builder started from media builds it again.
        #expect(MediaInformationBuilder(mediaInformation: media).build() == media)
    }

    @Test func cssStringsAreReadAsCastColoursWithAlphaLast() {
        #expect(CastColor(cssString: "#FF000080") == CastColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(CastColor(cssString: "#00ff00") == CastColor(red: 0, green: 255, blue: 0))
        #expect(CastColor(cssString: "red") == nil)
        #expect(CastColor(cssString: "#FF000080")?.cssString == "#FF000080")
    }
}
