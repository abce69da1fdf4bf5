// Any caption file CueKit reads (WebVTT, SubRip, TTML), to WebVTT with a Cast style baked in.
//   swift run ConvertAnything movie.srt [style.json] > movie.vtt
import CueKitConversion
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard let input = arguments.first else {
    FileHandle.standardError.write(Data("usage: ConvertAnything TRACK [STYLE.json] > OUT.vtt\n".utf8))
    exit(2)
}
do {
    // The format comes from the content; SubRip colours and TTML styles land in STYLE blocks.
    let source = try TrackSource(path: input)
    // A Cast TextTrackStyle in its JSON wire form, such as {"foregroundColor": "#FFFF00FF"}.
    let style = try arguments.dropFirst().first.map { path in
        try TextTrackStyle(document: CastJSONDocument(parsing: FileByteSource(path: path).readAll()))
    }
    let conversion = StyledWebVTTConversion(source: source, style: style)
    var (outcome, output) = try conversion.write(to: FileDescriptorSink.standardOutput())
    try output.flush()
    for diagnostic in outcome.diagnostics { FileHandle.standardError.write(Data("\(input): \(diagnostic)\n".utf8)) }
} catch {
    FileHandle.standardError.write(Data("ConvertAnything: \(error)\n".utf8))
    exit(1)
}
