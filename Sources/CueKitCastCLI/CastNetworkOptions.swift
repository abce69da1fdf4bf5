import ArgumentParser
import CueKitCastV2
import CueKitCommandSupport

// The command lines of the commands that talk to the network (`cuekit serve`, `cuekit cast send`,
// `play`, `tracks`, `restyle`, `devices`, `emulate`), declared here alone: `cuekit` hands these
// command lines over unread, and lists the commands by their ``NetworkCommand`` (name and
// abstract, shared with it). Each options type holds a command's configuration, arguments and
// checks; the commands beside it do the work.

/// `--device HOST[:PORT]`: a Cast device's address (port 8009 unless given).
struct CastDeviceAddress: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var host: String
    var port: Int

    init?(argument: String) {
        // HOST, HOST:PORT, [IPv6]:PORT or a bare IPv6 address.
        if argument.hasPrefix("["), let close = argument.firstIndex(of: "]") {
            host = String(argument[argument.index(after: argument.startIndex)..<close])
            let rest = argument[argument.index(after: close)...]
            if rest.isEmpty {
                port = 8009
            } else if rest.hasPrefix(":"), let value = Int(rest.dropFirst()), (1...65_535).contains(value) {
                port = value
            } else {
                return nil
            }
        } else if argument.filter({ $0 == ":" }).count == 1, let colon = argument.firstIndex(of: ":") {
            guard let value = Int(argument[argument.index(after: colon)...]), (1...65_535).contains(value) else { return nil }
            host = String(argument[..<colon])
            port = value
        } else {
            host = argument
            port = 8009
        }
        if host.isEmpty { return nil }
    }

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// `cuekit serve FOLDER`: the track server, receiver page and sender socket.
struct ServeOptions: ParsableArguments {
    static let command = CommandConfiguration(
        commandName: NetworkCommand.serve.name,
        abstract: NetworkCommand.serve.abstract,
        discussion: """
            Files are served with the CORS a Cast receiver needs (Access-Control-Allow-Origin, and Range, \
            Accept-Encoding and Content-Type allowed), byte ranges, HEAD, ETag and Last-Modified with conditional \
            requests, and gzip for text. /tracks/NAME?as=vtt&style=STYLE answers any track CueKit reads as WebVTT with \
            a Cast TextTrackStyle baked in (STYLE: inline JSON, or a JSON file in the folder). /media.json lists the \
            folder's media, tracks (by their /tracks/ URL) and Cast styles. /receiver is a receiver page; /sender \
            a control page that offers those files and builds the LOAD; senders speak Cast's media namespace as \
            JSON over the WebSocket /cast (see cuekit cast send). A LOAD whose media or tracks fail to load \
            reaches every sender as LOAD_FAILED with the reason. Nothing outside the folder is served. The server binds \
            127.0.0.1 unless --host says otherwise: a Cast device on the network needs the machine's LAN address. \
            A connection that sends no request within --header-timeout, or none for --idle-timeout after its last answer, \
            is closed; when --max-connections are open, a new connection takes the place of the one that has waited \
            longest for its client. It stops on SIGINT or SIGTERM: requests under way get --shutdown-grace seconds, then \
            every connection is closed (a second signal closes them at once). Exit status: 0 after a stop; 2 when it \
            cannot start.

            Examples:
              cuekit serve media/
              cuekit serve media/ --host 0.0.0.0 --port 8080 \\
                --allow-origin https://receiver.example.com
            """
    )

    init() {}

    @Argument(help: ArgumentHelp("The folder to serve.", valueName: "folder"))
    var folder = "."

    @Option(help: ArgumentHelp("The address to bind (0.0.0.0 for every interface).", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port (0 for any free one).", valueName: "port"))
    var port = 8000

    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp(
            "An origin allowed to read the files (scheme://host:port); repeat it or separate with commas. By default any origin (*).",
            valueName: "origin"))
    var allowOrigin: [String] = []

    @Flag(name: .customLong("no-cors"), help: .hidden)
    var noCORS = false

    @Option(help: ArgumentHelp("The most connections open at once.", valueName: "count"))
    var maxConnections = 1024

    @Option(help: ArgumentHelp("The longest WebSocket message read, in bytes (K, M suffixes allowed).", valueName: "bytes"))
    var maxMessageBytes = ByteCount(65_536)

    @Option(help: ArgumentHelp("Seconds a new connection has to send its first request before it is closed.", valueName: "seconds"))
    var headerTimeout = 10.0

    @Option(help: ArgumentHelp("Seconds a connection is kept open between requests.", valueName: "seconds"))
    var idleTimeout = 30.0

    @Option(
        help: ArgumentHelp(
            "Seconds a stop (SIGINT, SIGTERM) lets requests under way finish before it closes every connection; a second signal stops at once.",
            valueName: "seconds"))
    var shutdownGrace = 5.0

    @Option(
        help: ArgumentHelp(
            "The viewer's language: a LOAD that names no active tracks switches on the first subtitle or caption track in it.",
            valueName: "tag"))
    var language: String?

    @Flag(help: "Do not log requests to standard error.")
    var quiet = false

    @Option(help: ArgumentHelp("Tracks converted at once (/tracks/), on threads apart from file serving. By default half the cores, at least 1.", valueName: "count"))
    var conversionThreads: Int?

    @Option(help: ArgumentHelp("Conversions that may wait for a thread; more are answered 503 with Retry-After.", valueName: "count"))
    var maxWaitingConversions = 16

    @Option(help: ArgumentHelp("The most bytes of converted tracks kept (K, M, G suffixes); the least recently used go first.", valueName: "bytes"))
    var conversionCacheBytes = ByteCount(1 << 30)

    @Option(help: ArgumentHelp("The most converted tracks kept.", valueName: "count"))
    var conversionCacheEntries = 1000

    @Option(help: ArgumentHelp("The most bytes of gzipped bodies kept (K, M, G suffixes).", valueName: "bytes"))
    var gzipCacheBytes = ByteCount(64 << 20)

    @Option(help: ArgumentHelp("Bodies gzipped whole at once; further requests stream their own compression.", valueName: "count"))
    var gzipCompressions = 2

    @Option(help: ArgumentHelp("The most bytes of messages a sender may leave unread before it is disconnected (K, M suffixes).", valueName: "bytes"))
    var maxSenderQueueBytes = ByteCount(256 << 10)

    /// The allowed origins: the flags' values split at commas, white space around each removed.
    var origins: [String] {
        allowOrigin.flatMap { $0.split(separator: ",") }.map { origin in
            let start = origin.firstIndex { !$0.isWhitespace } ?? origin.endIndex
            let end = origin.lastIndex { !$0.isWhitespace }.map(origin.index(after:)) ?? start
            return String(origin[start..<max(start, end)])
        }
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be at least 1") }
        for (name, seconds) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout)] {
            guard seconds > 0, seconds <= 86_400 else { throw ValidationError("\(name) must be more than 0 and at most 86400 seconds") }
        }
        guard shutdownGrace >= 0, shutdownGrace <= 86_400 else { throw ValidationError("--shutdown-grace must be 0 to 86400 seconds") }
        if let conversionThreads, conversionThreads < 1 { throw ValidationError("--conversion-threads must be at least 1") }
        guard maxWaitingConversions >= 0 else { throw ValidationError("--max-waiting-conversions must be 0 or more") }
        guard conversionCacheEntries > 0 else { throw ValidationError("--conversion-cache-entries must be at least 1") }
        guard gzipCompressions > 0 else { throw ValidationError("--gzip-compressions must be at least 1") }
        for origin in origins {
            guard origin.hasPrefix("http://") || origin.hasPrefix("https://"), !origin.dropFirst(8).contains("/") else {
                throw ValidationError("--allow-origin '\(origin)' is not an origin (scheme://host[:port], no path)")
            }
        }
    }
}

/// `cuekit cast send --to ws://…/cast MESSAGE`: one message to a receiver, its answer printed.
struct CastSendOptions: ParsableArguments {
    static let command = CommandConfiguration(
        commandName: NetworkCommand.castSend.name,
        abstract: NetworkCommand.castSend.abstract,
        discussion: """
            The message is checked first, as cuekit cast check does; a message a receiver would refuse is not sent. \
            A message without a requestId is given one. The receiver's answer to it (MEDIA_STATUS, or an error such as \
            INVALID_REQUEST) is printed as JSON on standard output. Exit status: 0 when the receiver answered with a \
            status; 1 when the message has errors or the receiver refused it; 2 when the file cannot be read, the \
            receiver cannot be reached or does not answer in time.

            Examples:
              cuekit cast send --to ws://127.0.0.1:8000/cast load.json
              echo '{"type":"EDIT_TRACKS_INFO","activeTrackIds":[2]}' \\
                | cuekit cast send --to ws://127.0.0.1:8000/cast -
            """
    )

    init() {}

    @Option(help: ArgumentHelp("The receiver's sender socket.", valueName: "ws://host:port/cast"))
    var to: String

    @Argument(help: ArgumentHelp("The message ('-' for standard input).", valueName: "message.json"))
    var file: String

    @Option(help: ArgumentHelp("How long to wait for the answer, in seconds.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        guard to.hasPrefix("ws://") else { throw ValidationError("--to must be a ws:// URL (a CueKit receiver's sender socket)") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
    }
}

/// `cuekit cast emulate`: a Cast device on this machine.
struct CastEmulateOptions: ParsableArguments {
    static let command = CommandConfiguration(
        commandName: NetworkCommand.castEmulate.name,
        abstract: NetworkCommand.castEmulate.abstract,
        discussion: """
            Senders connect to it by host and port as to a Chromecast: it answers the connection, \
            heartbeat and receiver namespaces, launches the Default Media Receiver (CC1AD845), and \
            hands its media namespace to the receiver `cuekit serve` runs, whose page shows what plays. \
            Its TLS certificate is made at start and signed by itself, as a device's is.

            Examples:
              cuekit cast emulate --folder media          # Cast v2 :8009, pages :8010
              cuekit cast emulate --port 0 --http-port 0  # free ports, printed at start
              cuekit cast emulate --host 0.0.0.0 --announce --name "Test TV"
            """
    )

    init() {}

    @Option(help: ArgumentHelp("The address to bind (0.0.0.0 for every interface).", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The Cast v2 (TLS) port (0 for any free one).", valueName: "port"))
    var port = 8009

    @Option(name: .customLong("http-port"), help: ArgumentHelp("The port of the track server and receiver page (0 for any free one).", valueName: "port"))
    var httpPort = 8010

    @Option(help: ArgumentHelp("The folder the track server serves.", valueName: "folder"))
    var folder = "."

    @Option(help: ArgumentHelp("The device's name, as discovery shows it.", valueName: "name"))
    var name = "CueKit emulator"

    @Flag(help: "Answer mDNS queries for _googlecast._tcp, so that `cuekit cast devices` and other senders find it.")
    var announce = false

    @Option(name: .customLong("mdns-port"), help: ArgumentHelp("The UDP port --announce answers on (5353 joins the mDNS group; 0 for any free one).", valueName: "port"))
    var mdnsPort = 5353

    @Option(name: .customLong("heartbeat-timeout"), help: ArgumentHelp("Seconds a silent sender is kept before it is disconnected.", valueName: "seconds"))
    var heartbeatTimeout = 15.0

    @Option(
        name: .customLong("max-senders-per-connection"),
        help: ArgumentHelp("Sender ids one TLS connection may use; a new one past it is answered CLOSE.", valueName: "count"))
    var maximumSendersPerConnection = CastV2Device.Configuration().maximumSendersPerConnection

    @Option(
        name: .customLong("max-senders"), help: ArgumentHelp("Sender ids over all connections, with the same answer past it.", valueName: "count"))
    var maximumSenders = CastV2Device.Configuration().maximumSenders

    @Option(
        name: .customLong("max-queued-bytes"),
        help: ArgumentHelp(
            "Bytes waiting to be written to one connection before its sender is taken as not reading and disconnected.", valueName: "bytes"))
    var maximumQueuedBytes = CastV2Device.Configuration().maximumQueuedBytesPerConnection

    func validate() throws {
        guard (0...65_535).contains(port), (0...65_535).contains(httpPort) else { throw ValidationError("ports must be 0 to 65535") }
        guard heartbeatTimeout > 0 else { throw ValidationError("--heartbeat-timeout must be positive") }
        guard maximumSendersPerConnection > 0, maximumSenders > 0 else { throw ValidationError("--max-senders and --max-senders-per-connection must be positive") }
        guard maximumQueuedBytes >= 64 * 1024 else { throw ValidationError("--max-queued-bytes must be at least 65536 (one Cast message)") }
        guard (0...65_535).contains(mdnsPort) else { throw ValidationError("--mdns-port must be 0 to 65535") }
    }
}

/// `--device NAME|HOST[:PORT]` for the commands that act on a device: an address, or a name that
/// discovery resolves.
struct DeviceOptions: ParsableArguments {
    init() {}

    @Option(
        help: ArgumentHelp(
            "The device: HOST or HOST:PORT (port 8009 by default), or its name as `cuekit cast devices` lists it.", valueName: "name|host[:port]"))
    var device: String

    @Option(name: .customLong("mdns-server"), help: ArgumentHelp("Where a device name is looked up (the mDNS group by default).", valueName: "address[:port]"))
    var mdnsServer = "224.0.0.251:5353"

    func validate() throws {
        guard CastDeviceAddress(argument: mdnsServer) != nil else { throw ValidationError("--mdns-server is ADDRESS or ADDRESS:PORT") }
        guard !device.isEmpty else { throw ValidationError("--device is empty") }
    }
}

/// `cuekit cast play --device HOST[:PORT] MOVIE --track FILE…`: cast a movie with its tracks.
struct CastPlayOptions: ParsableArguments {
    static let command = CommandConfiguration(
        commandName: NetworkCommand.castPlay.name,
        abstract: NetworkCommand.castPlay.abstract,
        discussion: """
            Serves the movie's folder with CORS on an address the device can reach (tracks are served \
            converted to WebVTT), launches the Default Media Receiver over Cast v2, loads the movie with \
            its tracks and style, and prints each status update as it arrives, until Ctrl-C (exit 0) or \
            until the device goes away (exit 2, with the reason). Tracks must be inside the movie's folder. \
            The first track is on at load unless --active names others (--active none: no track).

            Examples:
              cuekit cast play --device 192.168.1.20 media/movie.mp4 \\
                --track media/movie.en.srt --track media/movie.fr.ttml --active 2
              cuekit cast play --device 127.0.0.1:8009 movie.webm \\
                --track movie.de.vtt --style style.json --active none
              cuekit cast play --device "Living Room" movie.mp4 --track movie.en.vtt
            """
    )

    init() {}

    @OptionGroup var target: DeviceOptions

    @Argument(help: ArgumentHelp("The movie file.", valueName: "movie"))
    var movie: String

    @Option(name: .customLong("track"), help: ArgumentHelp("A caption file (WebVTT, TTML, SubRip), once per track; ids count from 1.", valueName: "file"))
    var tracks: [String] = []

    @Option(
        help: ArgumentHelp(
            "A track id to switch on at load (repeat or separate with commas), or 'none'; by default the first track.", valueName: "id"),
        transform: { text in
            if text == "none" { return [] }
            return try text.split(separator: ",").map { part in
                guard let id = Int(part.filter { $0 != " " }) else { throw ValidationError("'\(part)' is not a track id (or 'none')") }
                return id
            }
        }
    )
    var active: [[Int]] = []

    /// The tracks on at load: those --active names, else the first.
    var activeTrackIDs: [Int] {
        active.isEmpty ? (tracks.isEmpty ? [] : [1]) : active.flatMap { $0 }
    }

    @Option(name: .customLong("serve-host"), help: ArgumentHelp("The address the device reaches this machine at (by default, the one the route to the device uses).", valueName: "address"))
    var serveHost: String?

    @Option(name: .customLong("http-port"), help: ArgumentHelp("The track server's port (0 for any free one).", valueName: "port"))
    var httpPort = 0

    @OptionGroup(title: "Text track style")
    var style: StyleOptions

    func validate() throws {
        for id in active.flatMap({ $0 }) where !(1...max(tracks.count, 1)).contains(id) || tracks.isEmpty {
            let known = tracks.isEmpty ? "no --track is given" : "the tracks are 1 to \(tracks.count)"
            throw ValidationError("--active \(id) names no track: " + known)
        }
        guard (0...65_535).contains(httpPort) else { throw ValidationError("--http-port must be 0 to 65535") }
    }
}

/// `cuekit cast tracks --device … (--active ID… | --off)`: switch the tracks of what plays.
struct CastTracksOptions: ParsableArguments {
    static let command = CommandConfiguration(
        commandName: NetworkCommand.castTracks.name,
        abstract: NetworkCommand.castTracks.abstract,
        discussion: """
            Joins the Default Media Receiver's session (it does not launch one) and sends EDIT_TRACKS_INFO.

            Examples:
              cuekit cast tracks --device 192.168.1.20 --active 2
              cuekit cast tracks --device 127.0.0.1:8009 --off
            """
    )

    init() {}

    @OptionGroup var target: DeviceOptions

    @Option(help: ArgumentHelp("A track id to switch on (repeat for several); the others go off.", valueName: "id"))
    var active: [Int] = []

    @Flag(help: "Switch every text track off.")
    var off = false

    func validate() throws {
        guard active.isEmpty != !off else { throw ValidationError("give --active ID or --off") }
    }
}

/// `cuekit cast restyle --device … --style s.json`: restyle the text of what plays.
struct CastRestyleOptions: ParsableArguments {
    static let command = CommandConfiguration(
        commandName: NetworkCommand.castRestyle.name,
        abstract: NetworkCommand.castRestyle.abstract,
        discussion: """
            Examples:
              cuekit cast restyle --device 192.168.1.20 --style style.json
              cuekit cast restyle --device 127.0.0.1:8009 \\
                --foreground '#FFFF00FF' --edge-type outline
            """
    )

    init() {}

    @OptionGroup var target: DeviceOptions

    @OptionGroup(title: "Text track style")
    var style: StyleOptions
}

/// `cuekit cast devices`: the Cast devices on the network, by mDNS.
struct CastDevicesOptions: ParsableArguments {
    static let command = CommandConfiguration(
        commandName: NetworkCommand.castDevices.name,
        abstract: NetworkCommand.castDevices.abstract,
        discussion: """
            Sends one mDNS query and lists every device that answers within --timeout. Exit status: \
            0 when a device answered, 1 when none did, 2 when the query could not be sent.

            Examples:
              cuekit cast devices
              cuekit cast devices --timeout 5 --json
            """
    )

    init() {}

    @Option(help: ArgumentHelp("Seconds to wait for answers.", valueName: "seconds"))
    var timeout = 3.0

    @Option(name: .customLong("mdns-server"), help: ArgumentHelp("Where the query goes (the mDNS group by default; an emulator's --mdns-port for tests).", valueName: "address[:port]"))
    var mdnsServer = "224.0.0.251:5353"

    @Flag(help: "Print JSON, one object per device.")
    var json = false

    func validate() throws {
        guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout must be more than 0 and at most 60 seconds") }
        guard CastDeviceAddress(argument: mdnsServer) != nil else { throw ValidationError("--mdns-server is ADDRESS or ADDRESS:PORT") }
    }
}
