import ArgumentParser
import CueKit
import CueKitCommandSupport
import CueKitConversion
import CueKitHLS
import CueKitWebVTT

/// `cuekit segment INPUT... -o DIR`: each track as an HLS WebVTT subtitle rendition (a media
/// playlist and its segments, ``HLSSegmentation``), aligned to the video's MPEG-2 time, and named in
/// a multivariant playlist (``HLSMultivariantPlaylist``).
struct SegmentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segment",
        abstract: "Cut caption tracks into HLS WebVTT segments with a media playlist.",
        discussion: """
            Reads each INPUT (WebVTT, TTML or SubRip, as 'convert' reads it, with the same style \
            options) and writes a WebVTT media playlist (subs.m3u8, or --playlist) and its segments \
            (subs0.vtt, subs1.vtt, ...) into DIR: one segment every --segment-duration seconds, each \
            cue in every segment it overlaps with its whole times, empty segments where no cue is, \
            and X-TIMESTAMP-MAP=MPEGTS:<ticks>,LOCAL:00:00:00.000 in every segment's header. The \
            MPEGTS value is --mpegts, or the first presentation time of the video --align-to names \
            (a .ts segment, fragmented MP4, or a media or multivariant playlist of either), modulo \
            2^33. Several inputs go into DIR/<language>/ (or DIR/<input name>/). The folder is \
            replaced all at once: a failure leaves it as it was.

            --master adds an EXT-X-MEDIA line per input (TYPE=SUBTITLES, GROUP-ID="subs", its \
            --language and --name, the first DEFAULT) to an existing multivariant playlist, or \
            updates the line of the same language, and sets SUBTITLES="subs" on every \
            EXT-X-STREAM-INF; every other byte of the playlist is kept.

            Problems in the inputs go to standard error as 'file:line:column: severity: message \
            [code]', and the segments are written all the same, as 'convert' writes its output. \
            Exit status: 0 every rendition written; 1 an input that is not a track, media with no \
            time to align to, a playlist that is not a multivariant playlist, or --strict and an \
            input has errors; 2 a usage error, or a file that cannot be read or written.

            Examples:
              cuekit segment movie.srt -o hls/subs --align-to hls/video.m3u8
              cuekit segment en.srt fr.ttml --language en,fr --name English,Français \\
                  --master hls/master.m3u8 -o hls/subs --segment-duration 4
              cuekit segment ep.vtt -o out --mpegts 900000 --foreground '#FFFF00'
            """
    )

    @Argument(help: ArgumentHelp("The tracks to segment.", valueName: "input"))
    var inputs: [String]

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("The folder to write into (made if missing).", valueName: "dir"))
    var output: String

    @Option(help: ArgumentHelp("The media playlist's file name (default: subs.m3u8); segments are named after it.", valueName: "name"))
    var playlist = "subs.m3u8"

    @Option(help: ArgumentHelp("Each segment's length in seconds, fractions allowed (default: 6).", valueName: "seconds"))
    var segmentDuration = 6.0

    @Flag(
        help: ArgumentHelp(
            "Write every segment into one file (subs.vtt beside subs.m3u8), each a byte range of it (EXT-X-BYTERANGE, HLS version 4): one file to make and serve, not one a segment."))
    var singleFile = false

    @Option(help: ArgumentHelp("The MPEG-2 time cue time 0 falls on, in 90 kHz ticks (default: 0).", valueName: "ticks"))
    var mpegts: UInt64?

    @Option(
        help: ArgumentHelp(
            "Take the MPEG-2 time from the video's first presentation time: a .ts file, a self-initializing fragmented .mp4, or an .m3u8 playlist of TS or fMP4 (EXT-X-MAP) segments.",
            valueName: "media"))
    var alignTo: String?

    @Option(help: ArgumentHelp("A multivariant playlist to add the subtitle renditions to, in place.", valueName: "master.m3u8"))
    var master: String?

    @Option(help: ArgumentHelp("Each input's language (BCP 47), comma-separated in input order.", valueName: "en,fr"))
    var language: String?

    @Option(help: ArgumentHelp("Each rendition's name shown to viewers, comma-separated (default: its language).", valueName: "names"))
    var name: String?

    @Option(help: ArgumentHelp("The inputs' format: vtt, ttml, srt, ass, stl or scc (default: told from each one's content).", valueName: "format"))
    var from: FormatArgument?

    @Flag(
        name: [.customShort("q"), .long], help: "Do not print the inputs' diagnostics (with --strict, the exit status still counts them).")
    var quiet = false

    @Flag(help: "Exit 1 when an input has errors, though its segments were written.")
    var strict = false

    @OptionGroup(title: "Limits")
    var limits: ReadingOptions

    @OptionGroup(title: "Text track style")
    var style: StyleOptions

    var languages: [String] { language.map { $0.split(separator: ",").map(String.init) } ?? [] }
    var names: [String] { name.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? [] }

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("Name at least one input.") }
        if inputs.contains("-") && inputs.count > 1 { throw ValidationError("Standard input ('-') is segmented alone.") }
        guard segmentDuration.isFinite, segmentDuration >= 0.001, segmentDuration <= 86_400 else {
            throw ValidationError("--segment-duration takes seconds from 0.001 to 86400.")
        }
        if mpegts != nil && alignTo != nil { throw ValidationError("Give either --mpegts or --align-to, not both.") }
        if language != nil, languages.count != inputs.count {
            throw ValidationError("--language names \(languages.count) language(s) for \(inputs.count) input(s); give one per input.")
        }
        if name != nil, names.count != inputs.count {
            throw ValidationError("--name names \(names.count) rendition(s) for \(inputs.count) input(s); give one per input.")
        }
        if master != nil, language == nil { throw ValidationError("--master needs --language: each rendition's LANGUAGE.") }
        if !playlist.hasSuffix(".m3u8") || playlist.contains("/") || playlist == ".m3u8" {
            throw ValidationError("--playlist takes a file name ending in .m3u8.")
        }
        let folders = inputs.indices.map(folder(for:))
        if Set(folders).count != folders.count { throw ValidationError("Two inputs would be written to the same folder; give --language.") }
    }

    /// Where input `index` is written: the output folder for one input, else a subfolder named
    /// after its language (or the input's name).
    func folder(for index: Int) -> String {
        guard inputs.count > 1 else { return output }
        let base = output.hasSuffix("/") ? String(output.dropLast()) : output
        if index < languages.count { return base + "/" + languages[index] }
        let name = inputs[index].split(separator: "/").last.map(String.init) ?? inputs[index]
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        return base + "/" + stem
    }

    func run() throws {
        var segments = HLSSegmentOptions(segmentDuration: Int((segmentDuration * 1000).rounded()))
        segments.segmentNamePrefix = String(playlist.dropLast(5))
        segments.segmentsInOneFile = singleFile
        do {
            let ticks = try alignTo.map(HLSMediaAlignment.mpegTimestamp(alignedTo:)) ?? mpegts ?? 0
            segments.timestampMap = WebVTTTimestampMap(mpegTimestamp: ticks)
        } catch let error as ReadError {
            throw CommandFailure(
                located: error.description, status: error.diagnostic.code == IOFailure.readCode ? .usageOrIOError : .invalidInput)
        }
        if let master {
            // The multivariant playlist is checked before any segment is written.
            do {
                let text = String(decoding: try FileByteSource(path: master).readAll(), as: UTF8.self)
                _ = try HLSMultivariantPlaylist.adding([HLSSubtitleRendition(language: "und", uri: "subs.m3u8")], to: text)
            } catch let error as ReadError {
                let located = error.path == nil ? error.inFile(master) : error
                throw CommandFailure(
                    located: located.description, status: error.diagnostic.code == IOFailure.readCode ? .usageOrIOError : .invalidInput)
            }
        }
        let resolved = try style.resolve()
        if inputs.count > 1 { try ConvertCommand.makeFolder(output) }
        var withErrors = 0
        var renditions: [HLSSubtitleRendition] = []
        for (index, input) in inputs.enumerated() {
            let folder = folder(for: index)
            let outcome = try segment(input, into: folder, segments: segments, style: resolved)
            if outcome.conversion.inputErrors > 0 { withErrors += 1 }
            if index == 0 { resolved?.report(outcome.conversion.styleDiagnostics) }
            if let master, index < languages.count {
                renditions.append(
                    HLSSubtitleRendition(
                        name: index < names.count ? names[index] : nil, language: languages[index], isDefault: index == 0,
                        uri: HLSMultivariantPlaylist.relativeURI(from: master, to: outcome.playlistPath)))
            }
        }
        if let master {
            do {
                try HLSMultivariantPlaylist.update(fileAtPath: master, adding: renditions)
            } catch let error as ReadError {
                throw CommandFailure(
                    located: error.description, status: error.diagnostic.code == IOFailure.readCode ? .usageOrIOError : .invalidInput)
            } catch let error as WriteError {
                throw CommandFailure(error.message, status: .usageOrIOError)
            }
        }
        if strict, withErrors > 0 { throw ExitCode(ExitStatus.invalidInput.rawValue) }
    }

    /// Segments one input into `folder`, its diagnostics on standard error as they come.
    private func segment(
        _ input: String, into folder: String, segments: HLSSegmentOptions, style: StyleOptions.ResolvedStyle?
    ) throws -> HLSSegmentation.Outcome {
        let inputName = input == "-" ? "<stdin>" : input
        let quiet = quiet
        var printer = DiagnosticPrinter()
        defer { printer.flush() }
        func report(_ found: ConversionDiagnostic) {
            if quiet, found.origin != .output, found.diagnostic.severity < .error { return }
            printer.print(found.diagnostic, file: found.origin == .output ? folder : inputName)
        }
        do {
            let source = try TrackSource.open(input, format: from?.format, limits: limits)
            var options = TrackConversion.Options(format: .webVTT, style: style?.style)
            if let style {
                options.stylePath = style.path
                options.styleLocations = style.locations
            }
            let segmentation = HLSSegmentation(
                conversion: TrackConversion(source: source, options: options), segments: segments, playlistName: playlist)
            do {
                return try segmentation.write(toFolder: folder, report: report)
            } catch let error as ReadError {
                throw source.explainedForCommand(error)
            }
        } catch let error as WriteError {
            throw CommandFailure(error.message, status: .usageOrIOError)
        } catch let error as ReadError {
            if error.diagnostic.code == IOFailure.readCode { throw CommandFailure(error.diagnostic.message, status: .usageOrIOError) }
            throw CommandFailure(located: error.inFile(inputName).description, status: .invalidInput)
        } catch let error as HLSSegmentingError {
            throw CommandFailure(error.description, status: .invalidInput)
        }
    }
}
