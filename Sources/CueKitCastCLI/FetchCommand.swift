import ArgumentParser
import CueKit
import CueKitCommandSupport
import CueKitFetch

/// `cuekit fetch URL -o FOLDER`: a remote HLS subtitle rendition as local files
/// (``HLSRenditionFetch``). The local playlist's path is printed on standard output, for
/// `cuekit convert URL --fetch` and scripts.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: NetworkCommand.fetch.name, abstract: NetworkCommand.fetch.abstract,
        discussion: """
            A media playlist is fetched with every segment it lists; a multivariant playlist with each subtitle \
            rendition's media playlist and segments, in folders rendition-1, rendition-2... (video variants are not \
            fetched). The playlists are copied line for line, their URIs naming the local files, so that a line number \
            in a diagnostic about the copy is the remote playlist's. The folder appears only once everything is fetched.

            Examples:
              cuekit fetch https://example.com/hls/subs/en.m3u8 -o en
              cuekit fetch https://example.com/hls/master.m3u8 -o subs --parallel 8
              cuekit convert https://example.com/hls/master.m3u8 \\
                --fetch --rendition fr -o fr.vtt
            """)

    @Argument(help: ArgumentHelp("The playlist's address (http or https).", valueName: "url"))
    var url: String

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The folder to make; it must not exist.", valueName: "folder"))
    var output: String

    @Option(help: ArgumentHelp("How many segments are fetched at once.", valueName: "count"))
    var parallel = 4

    @Option(help: ArgumentHelp("How long one request may take.", valueName: "seconds"))
    var timeout = 60

    @Option(help: ArgumentHelp("The largest segment, in bytes (suffixes K, M).", valueName: "size"))
    var maxSegmentBytes = ByteCount(64 << 20)

    @Flag(name: .shortAndLong, help: "Print only the local playlist's path, not what was fetched.")
    var quiet = false

    func validate() throws {
        guard parallel >= 1, parallel <= 64 else { throw ValidationError("--parallel must be from 1 to 64") }
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second") }
    }

    func run() async throws {
        var limits = HLSRenditionFetch.Limits()
        limits.parallelRequests = parallel
        limits.requestSeconds = timeout
        limits.segmentBytes = maxSegmentBytes.bytes
        let fetched: HLSRenditionFetch.Fetched
        do {
            fetched = try await HLSRenditionFetch(limits: limits).fetch(url, into: output)
        } catch {
            throw CommandFailure(error.description)
        }
        if !quiet {
            let renditions = fetched.renditions == 1 ? "1 playlist" : "\(fetched.renditions) renditions"
            StandardError.write("cuekit: fetched \(renditions), \(fetched.segments) segments, \(fetched.bytes) bytes into \(output)\n")
        }
        var standardOutput = FileDescriptorSink.standardOutput()
        try standardOutput.write(fetched.playlistPath + "\n")
        try standardOutput.flush()
    }
}
