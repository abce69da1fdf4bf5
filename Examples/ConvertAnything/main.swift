// Any caption file CueKit reads (WebVTT, SubRip, TTML) to WebVTT with a Cast style baked in, by the
// engine `cuekit convert` uses (cues in start-time order, diagnostics as they are found):
//   swift run ConvertAnything Fixtures/subrip/font-color.srt Fixtures/cast/style-high-contrast.json
import CueKitConversion
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard let input = arguments.first, arguments.count <= 2 else {
    FileHandle.standardError.write(Data("usage: ConvertAnything TRACK [STYLE.json] > OUT.vtt\n".utf8))
    exit(2)
}
func warn(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
do {
    // The format comes from the content; SubRip colours and TTML styles land in STYLE blocks.
    let source = try TrackSource(path: input)
    // A Cast TextTrackStyle in its JSON wire form, such as {"foregroundColor": "#FFFF00FF"}.
    let style = try arguments.dropFirst().first.map { path in
        try TextTrackStyle(document: CastJSONDocument(parsing: FileByteSource(path: path).readAll()))
    }
    let conversion = TrackConversion(source: source, options: .init(format: .webVTT, style: style))
    let outcome = try conversion.writeToStandardOutput { found in
        warn(found.diagnostic.formatted(file: found.origin == .output ? "<stdout>" : input))
    }
    for diagnostic in outcome.styleDiagnostics { warn(diagnostic.formatted(file: arguments[1])) }
} catch {
    warn("ConvertAnything: \(error)")
    exit(1)
}
