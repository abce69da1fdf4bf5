import CueKit
import CueKitCast

/// Parses the input as Cast JSON and decodes it as every kind of document, as `cuekit cast check`
/// and `cuekit style --style` do, then validates and styles what decodes.
///
/// A decoded value written back as JSON must decode again to the same value.
func fuzzCastJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    _ = CastMessage.check(bytes)
    guard let document = try? CastJSONDocument(parsing: bytes) else { return 0 }
    for kind in CastMessage.Kind.allCases {
        _ = CastMessage.check(document, as: kind)
    }
    let json = document.value
    if let style = try? TextTrackStyle(json: json) {
        _ = style.validate()
        var track = Track()
        _ = style.apply(to: &track)
        if (try? TextTrackStyle(json: style.json)) != style {
            fatalError("a TextTrackStyle does not decode back from its JSON: \(style)")
        }
    }
    if let media = try? MediaInformation(json: json) {
        _ = media.validate()
        if (try? MediaInformation(json: media.json)) != media {
            fatalError("MediaInformation does not decode back from its JSON: \(media)")
        }
    }
    if let load = try? CastLoadRequest(json: json) {
        _ = load.validate()
        if (try? CastLoadRequest(json: load.json)) != load {
            fatalError("a LOAD request does not decode back from its JSON: \(load)")
        }
    }
    return 0
}
