import ArgumentParser

/// `cuekit`: read, check, convert and style caption tracks.
@main
struct CueKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuekit",
        abstract: "Read, check, convert and style caption and subtitle tracks (WebVTT, TTML, SubRip).",
        version: "0.1.0",
        subcommands: []
    )
}
