import ArgumentParser
import CueKit
import CueKitCast
import CueKitCastSender
import CueKitCastV2
import CueKitServer
import Foundation

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

/// Writes a line to standard output at once (a pipe would hold `print`'s lines back).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// `--device NAME|HOST[:PORT]` for the commands that act on a device: an address, or a name that
/// discovery resolves.
struct DeviceOptions: ParsableArguments {
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

    /// The address: the argument itself when it names a host that resolves, else the device
    /// discovery finds by that name (case aside).
    func resolve() throws -> CastDeviceAddress {
        if let address = CastDeviceAddress(argument: device), LocalAddress.resolves(address.host) { return address }
        let server = CastDeviceAddress(argument: mdnsServer)!
        let found: [CastDeviceInfo]
        do {
            found = try CastDeviceDiscovery.discover(timeout: .seconds(3), server: server.host, port: mdnsServer.contains(":") ? server.port : 5353)
        } catch {
            throw CommandFailure("cannot look \(device) up: \(error.description)")
        }
        guard let match = found.first(where: { $0.name.caseInsensitiveCompare(device) == .orderedSame }) else {
            let names = found.map(\.name)
            throw CommandFailure(
                "no host or Cast device is named \(device)" + (names.isEmpty ? " (no device answered discovery)" : "; devices that answered: " + names.joined(separator: ", ")))
        }
        return CastDeviceAddress(host: match.host, port: match.port)
    }
}

/// One line for a media status, as `cuekit cast play` prints each one.
func statusLine(_ status: CastMediaStatus) -> String {
    var line = "status: \(status.playerState.rawValue) at \(status.currentTime) s, active tracks ["
    line += status.activeTrackIds.map(String.init).joined(separator: ", ") + "]"
    if let style = status.media?.textTrackStyle {
        line += ", style " + CastJSONValue.object(style.json.objectValue ?? [:]).serialized(.compact)
    }
    return line
}

/// `cuekit cast play --device HOST[:PORT] MOVIE --track FILE…`: cast a movie with its tracks.
struct CastPlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Cast a movie with its caption tracks to a Cast device, styled, and follow its status.",
        discussion: """
            Serves the movie's folder with CORS on an address the device can reach (tracks are served \
            converted to WebVTT), launches the Default Media Receiver over Cast v2, loads the movie with \
            its tracks and style, and prints each status update as it arrives, until Ctrl-C (exit 0) or \
            until the device goes away (exit 2, with the reason). Tracks must be inside the movie's folder.

            Examples:
              cuekit cast play --device 192.168.1.20 media/movie.mp4 --track media/movie.en.srt --track media/movie.fr.ttml --active 1
              cuekit cast play --device 127.0.0.1:8009 movie.webm --track movie.de.vtt --style style.json
              cuekit cast play --device "Living Room" movie.mp4 --track movie.en.vtt
            """
    )

    @OptionGroup var target: DeviceOptions

    @Argument(help: ArgumentHelp("The movie file.", valueName: "movie"))
    var movie: String

    @Option(name: .customLong("track"), help: ArgumentHelp("A caption file (WebVTT, TTML, SubRip), once per track; ids count from 1.", valueName: "file"))
    var tracks: [String] = []

    @Option(help: ArgumentHelp("The id of the track to switch on at load (none by default).", valueName: "id"))
    var active: Int?

    @Option(name: .customLong("serve-host"), help: ArgumentHelp("The address the device reaches this machine at (by default, the one the route to the device uses).", valueName: "address"))
    var serveHost: String?

    @Option(name: .customLong("http-port"), help: ArgumentHelp("The track server's port (0 for any free one).", valueName: "port"))
    var httpPort = 0

    @OptionGroup(title: "Text track style")
    var style: StyleOptions

    func validate() throws {
        if let active, !(1...max(tracks.count, 1)).contains(active) || tracks.isEmpty {
            throw ValidationError("--active \(active) names no track: the tracks are 1 to \(tracks.count)")
        }
        guard (0...65_535).contains(httpPort) else { throw ValidationError("--http-port must be 0 to 65535") }
    }

    func run() throws {
        let movieURL = URL(fileURLWithPath: movie).standardizedFileURL
        let folder = movieURL.deletingLastPathComponent().path
        guard FileManager.default.isReadableFile(atPath: movieURL.path) else { throw CommandFailure("cannot read \(movie)") }
        var names: [String] = []
        for track in tracks {
            let path = URL(fileURLWithPath: track).standardizedFileURL.path
            guard path.hasPrefix(folder + "/") else { throw CommandFailure("\(track) is not inside the movie's folder \(folder), which is what is served") }
            guard FileManager.default.isReadableFile(atPath: path) else { throw CommandFailure("cannot read \(track)") }
            names.append(String(path.dropFirst(folder.count + 1)))
        }
        let resolvedStyle = try style.resolve()?.style
        let device = try target.resolve()
        let serveHost = try self.serveHost ?? LocalAddress.toward(device.host)

        let server = try TrackServer.quiet(folder: folder, host: serveHost, port: httpPort)
        let tracks = self.tracks
        let active = self.active
        let movieName = movieURL.lastPathComponent
        let outcome = BlockingOutcome()
        Task {
            var failure: String?
            do {
                try await withThrowingTaskGroup { group in
                    let started = AsyncStream<Int>.makeStream()
                    group.addTask {
                        try await server.run { port in started.continuation.yield(port) }
                        started.continuation.finish()
                    }
                    var port = 0
                    for await bound in started.stream {
                        port = bound
                        break
                    }
                    let base = "http://\(serveHost.contains(":") ? "[\(serveHost)]" : serveHost):\(port)"
                    let media = try Self.media(base: base, movie: movieName, names: names, paths: tracks, style: resolvedStyle)
                    let client = try await RemoteMediaClient.connect(toDevice: device.host, port: device.port)
                    say("cuekit: serving \(folder) at \(base)/ for \(device)")
                    let updates = await client.updates()
                    // Its status arrives with the updates, as every status after it.
                    try await client.load(CastLoadRequest(media: media, activeTrackIds: active.map { [$0] } ?? []))
                    group.addTask {
                        for await update in updates {
                            if case .mediaStatus(let status) = update { say(statusLine(status)) }
                        }
                        // The updates end when the connection does: the device went away.
                        throw CommandFailure("the device \(device) went away: \(await client.closedReason ?? "the connection closed")")
                    }
                    // The first to end: the server (Ctrl-C, a clean stop) or the device.
                    try await group.next()
                    await client.disconnect()
                    group.cancelAll()
                }
            } catch let error as CommandFailure {
                failure = error.message
            } catch {
                failure = "cannot cast to \(device): \(error)"
            }
            outcome.finish(failure)
        }
        if let failure = outcome.wait() { throw CommandFailure(failure) }
    }

    /// The media information: the movie and each track by its URL on the track server.
    static func media(base: String, movie: String, names: [String], paths: [String], style: TextTrackStyle?) throws -> MediaInformation {
        var mediaTracks: [MediaTrack] = []
        for (index, name) in names.enumerated() {
            let hints = try CastMediaCommand.hints(for: paths[index])
            let escaped = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
            let url = hints.contentType == "text/vtt" ? "\(base)/\(escaped)" : "\(base)/tracks/\(escaped)?as=vtt"
            mediaTracks.append(
                MediaTrack(
                    trackId: index + 1, type: .text, subtype: hints.kind ?? .subtitles, trackContentId: url, trackContentType: "text/vtt",
                    name: hints.label ?? hints.language, language: hints.language))
        }
        let escapedMovie = movie.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? movie
        let fileExtension = movie.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return MediaInformation(
            contentId: "\(base)/\(escapedMovie)", contentType: CaptionFileHints.contentTypes[fileExtension] ?? "video/mp4", streamType: .buffered,
            tracks: mediaTracks.isEmpty ? nil : mediaTracks, textTrackStyle: style)
    }
}

/// `cuekit cast tracks --device … (--active ID… | --off)`: switch the tracks of what plays.
struct CastTracksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracks",
        abstract: "Switch the text tracks of the media a Cast device is playing.",
        discussion: """
            Joins the Default Media Receiver's session (it does not launch one) and sends EDIT_TRACKS_INFO.

            Examples:
              cuekit cast tracks --device 192.168.1.20 --active 2
              cuekit cast tracks --device 127.0.0.1:8009 --off
            """
    )

    @OptionGroup var target: DeviceOptions

    @Option(help: ArgumentHelp("A track id to switch on (repeat for several); the others go off.", valueName: "id"))
    var active: [Int] = []

    @Flag(help: "Switch every text track off.")
    var off = false

    func validate() throws {
        guard active.isEmpty != !off else { throw ValidationError("give --active ID or --off") }
    }

    func run() throws {
        let ids = off ? [] : active
        try runOnSession(target.resolve()) { client in try await client.setActiveTrackIDs(ids) }
    }
}

/// `cuekit cast restyle --device … --style s.json`: restyle the text of what plays.
struct CastRestyleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restyle",
        abstract: "Set the text track style of the media a Cast device is playing.",
        discussion: """
            Examples:
              cuekit cast restyle --device 192.168.1.20 --style style.json
              cuekit cast restyle --device 127.0.0.1:8009 --foreground '#FFFF00FF' --edge-type outline
            """
    )

    @OptionGroup var target: DeviceOptions

    @OptionGroup(title: "Text track style")
    var style: StyleOptions

    func run() throws {
        guard let resolved = try style.resolve()?.style else { throw ValidationError("give a style: --style FILE or style flags") }
        try runOnSession(target.resolve()) { client in try await client.setTextTrackStyle(resolved) }
    }
}

/// Joins the session playing on `device`, makes one request, prints the status it answers.
func runOnSession(_ device: CastDeviceAddress, _ request: @escaping @Sendable (RemoteMediaClient) async throws -> CastMediaStatus) throws {
    let outcome = BlockingOutcome()
    Task {
        do {
            let client = try await RemoteMediaClient.connect(toDevice: device.host, port: device.port, launching: false)
            let status = try await request(client)
            say(statusLine(status))
            await client.disconnect()
            outcome.finish(nil)
        } catch {
            outcome.finish("\(device): \(error)")
        }
    }
    if let failure = outcome.wait() { throw CommandFailure(failure) }
}

/// The local address the route to a host leaves from: what a device on that route can reach.
enum LocalAddress {
    /// True when `host` is an address, or a name the resolver knows.
    static func resolves(_ host: String) -> Bool {
        var found: UnsafeMutablePointer<addrinfo>?
        defer { if found != nil { freeaddrinfo(found) } }
        return getaddrinfo(host, nil, nil, &found) == 0
    }

    static func toward(_ host: String) throws -> String {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "8009", &hints, &found) == 0, let info = found else { throw CommandFailure("cannot resolve \(host)") }
        defer { freeaddrinfo(found) }
        let descriptor = socket(info.pointee.ai_family, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw CommandFailure("cannot find a route to \(host)") }
        defer { close(descriptor) }
        // Connecting a datagram socket sends nothing: it only picks the route and its address.
        guard connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else { throw CommandFailure("no route to \(host)") }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        guard named == 0 else { throw CommandFailure("cannot find the local address toward \(host)") }
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let converted = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getnameinfo($0, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) }
        }
        guard converted == 0 else { throw CommandFailure("cannot find the local address toward \(host)") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// `cuekit cast devices`: the Cast devices on the network, by mDNS.
struct CastDevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the Cast devices on the network (mDNS, _googlecast._tcp): name, address and model.",
        discussion: """
            Sends one mDNS query and lists every device that answers within --timeout. Exit status: \
            0 when a device answered, 1 when none did, 2 when the query could not be sent.

            Examples:
              cuekit cast devices
              cuekit cast devices --timeout 5 --json
            """
    )

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

    func run() throws {
        let server = CastDeviceAddress(argument: mdnsServer)!
        let devices: [CastDeviceInfo]
        do {
            devices = try CastDeviceDiscovery.discover(
                timeout: .milliseconds(Int(timeout * 1000)), server: server.host, port: mdnsServer.contains(":") ? server.port : 5353)
        } catch {
            throw CommandFailure(error.description)
        }
        for device in devices {
            if json {
                var object: CastJSONObject = ["name": .string(device.name), "host": .string(device.host), "port": .number(Double(device.port))]
                if let model = device.model { object["model"] = .string(model) }
                if let id = device.id { object["id"] = .string(id) }
                say(CastJSONValue.object(object).serialized(.compact))
            } else {
                let address = device.host.contains(":") ? "[\(device.host)]:\(device.port)" : "\(device.host):\(device.port)"
                say("\(device.name)\t\(address)\t\(device.model ?? "")")
            }
        }
        if devices.isEmpty { throw CommandFailure("no Cast device answered within \(timeout) s", status: .invalidInput) }
    }
}

extension TrackServer {
    /// A track server for a Cast command (no access log), its error as the command's.
    static func quiet(folder: String, host: String, port: Int) throws -> TrackServer {
        var configuration = TrackServer.Configuration(folder: folder)
        configuration.host = host
        configuration.port = port
        configuration.accessLog = .none
        do {
            return try TrackServer(configuration: configuration)
        } catch {
            throw CommandFailure(String(describing: error))
        }
    }
}
