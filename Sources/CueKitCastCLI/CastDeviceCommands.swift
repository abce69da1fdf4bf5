import ArgumentParser
import CueKit
import CueKitCast
import CueKitCastSender
import CueKitCastV2
import CueKitCommandSupport
import CueKitServer
import Foundation

/// Writes a line to standard output at once (a pipe would hold `print`'s lines back).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

extension DeviceOptions {
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
    line += status.activeTrackIDs.map(String.init).joined(separator: ", ") + "]"
    if let style = status.media?.textTrackStyle {
        line += ", style " + CastJSONValue.object(style.json.objectValue ?? [:]).serialized(.compact)
    }
    return line
}

/// `cuekit cast play --device HOST[:PORT] MOVIE --track FILE…`: cast a movie with its tracks.
struct CastPlayCommand: AsyncParsableCommand {
    static let configuration = CastPlayOptions.command

    @OptionGroup var options: CastPlayOptions

    func run() async throws {
        let movie = options.movie
        let movieURL = URL(fileURLWithPath: movie).standardizedFileURL
        let folder = movieURL.deletingLastPathComponent().path
        guard FileManager.default.isReadableFile(atPath: movieURL.path) else { throw CommandFailure("cannot read \(movie)") }
        var names: [String] = []
        for track in options.tracks {
            let path = URL(fileURLWithPath: track).standardizedFileURL.path
            guard path.hasPrefix(folder + "/") else { throw CommandFailure("\(track) is not inside the movie's folder \(folder), which is what is served") }
            guard FileManager.default.isReadableFile(atPath: path) else { throw CommandFailure("cannot read \(track)") }
            names.append(String(path.dropFirst(folder.count + 1)))
        }
        let resolvedStyle = try options.style.resolve()?.style
        let device = try options.target.resolve()
        let serveHost = try options.serveHost ?? LocalAddress.toward(device.host)

        let server = try TrackServer.quiet(folder: folder, host: serveHost, port: options.httpPort)
        let tracks = options.tracks
        let active = options.activeTrackIDs
        let movieName = movieURL.lastPathComponent
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
                try await client.load(CastLoadRequest(media: media, activeTrackIDs: active))
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
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("cannot cast to \(device): \(error)")
        }
    }

    /// The media information: the movie and each track by its URL on the track server.
    static func media(base: String, movie: String, names: [String], paths: [String], style: TextTrackStyle?) throws -> MediaInformation {
        var mediaTracks: [MediaTrack] = []
        for (index, name) in names.enumerated() {
            let hints = try CaptionFileHints.read(paths[index])
            let escaped = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
            let url = hints.contentType == "text/vtt" ? "\(base)/\(escaped)" : "\(base)/tracks/\(escaped)?as=vtt"
            mediaTracks.append(
                MediaTrack(
                    trackID: index + 1, type: .text, subtype: hints.kind ?? .subtitles, trackContentID: url, trackContentType: "text/vtt",
                    name: hints.label ?? hints.language, language: hints.language))
        }
        let escapedMovie = movie.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? movie
        let fileExtension = movie.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return MediaInformation(
            contentID: "\(base)/\(escapedMovie)", contentType: CaptionFileHints.contentTypes[fileExtension] ?? "video/mp4", streamType: .buffered,
            tracks: mediaTracks.isEmpty ? nil : mediaTracks, textTrackStyle: style)
    }
}

/// `cuekit cast tracks --device … (--active ID… | --off)`: switch the tracks of what plays.
struct CastTracksCommand: AsyncParsableCommand {
    static let configuration = CastTracksOptions.command

    @OptionGroup var options: CastTracksOptions

    func run() async throws {
        let ids = options.off ? [] : options.active
        try await runOnSession(options.target.resolve()) { client in try await client.setActiveTrackIDs(ids) }
    }
}

/// `cuekit cast restyle --device … --style s.json`: restyle the text of what plays.
struct CastRestyleCommand: AsyncParsableCommand {
    static let configuration = CastRestyleOptions.command

    @OptionGroup var options: CastRestyleOptions

    func run() async throws {
        guard let resolved = try options.style.resolve()?.style else { throw ValidationError("give a style: --style FILE or style flags") }
        try await runOnSession(options.target.resolve()) { client in try await client.setTextTrackStyle(resolved) }
    }
}

/// Joins the session playing on `device`, makes one request, prints the status it answers.
func runOnSession(_ device: CastDeviceAddress, _ request: (RemoteMediaClient) async throws -> CastMediaStatus) async throws {
    do {
        let client = try await RemoteMediaClient.connect(toDevice: device.host, port: device.port, launching: false)
        let status = try await request(client)
        say(statusLine(status))
        await client.disconnect()
    } catch {
        throw CommandFailure("\(device): \(error)")
    }
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
struct CastDevicesCommand: AsyncParsableCommand {
    static let configuration = CastDevicesOptions.command

    @OptionGroup var options: CastDevicesOptions

    func run() async throws {
        let timeout = options.timeout
        let mdnsServer = options.mdnsServer
        let server = CastDeviceAddress(argument: mdnsServer)!
        let devices: [CastDeviceInfo]
        do {
            devices = try CastDeviceDiscovery.discover(
                timeout: .milliseconds(Int(timeout * 1000)), server: server.host, port: mdnsServer.contains(":") ? server.port : 5353)
        } catch {
            throw CommandFailure(error.description)
        }
        for device in devices {
            if options.json {
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
