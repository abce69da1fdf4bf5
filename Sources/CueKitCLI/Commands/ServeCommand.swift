import ArgumentParser
import CueKitServer
import Dispatch
import Foundation

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a folder of media and tracks to Cast receivers, with a receiver page and a sender page.",
        discussion: """
            Files are served with the CORS a Cast receiver needs (Access-Control-Allow-Origin, and Range, \
            Accept-Encoding and Content-Type allowed), byte ranges, HEAD, ETag and Last-Modified with conditional \
            requests, and gzip for text. /tracks/NAME?as=vtt&style=STYLE answers any track CueKit reads as WebVTT with \
            a Cast TextTrackStyle baked in (STYLE: inline JSON, or a JSON file in the folder). /receiver is a \
            receiver page; /sender a control page; senders speak Cast's media namespace as JSON over the \
            WebSocket /cast (see cuekit cast send). Nothing outside the folder is served. The server binds \
            127.0.0.1 unless --host says otherwise: a Cast device on the network needs the machine's LAN address. \
            It stops cleanly on SIGINT or SIGTERM. Exit status: 0 after a clean stop; 2 when it cannot start.

            Examples:
              cuekit serve media/
              cuekit serve media/ --host 0.0.0.0 --port 8080 --allow-origin https://receiver.example.com
            """
    )

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

    @Option(
        help: ArgumentHelp(
            "The viewer's language: a LOAD that names no active tracks switches on the first subtitle or caption track in it.",
            valueName: "tag"))
    var language: String?

    @Flag(help: "Do not log requests to standard error.")
    var quiet = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be at least 1") }
        for origin in allowOrigin.flatMap({ $0.split(separator: ",") }) {
            let trimmed = origin.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://"), !trimmed.dropFirst(8).contains("/") else {
                throw ValidationError("--allow-origin '\(trimmed)' is not an origin (scheme://host[:port], no path)")
            }
        }
    }

    func run() throws {
        var configuration = TrackServer.Configuration(folder: folder)
        configuration.host = host
        configuration.port = port
        configuration.maximumConnections = maxConnections
        configuration.maximumMessageBytes = maxMessageBytes.bytes
        configuration.preferredLanguage = language
        configuration.accessLog = quiet ? .none : .standardError
        let origins = allowOrigin.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        configuration.allowedOrigins = noCORS ? .none : origins.isEmpty ? .any : .only(origins)
        let server: TrackServer
        do {
            server = try TrackServer(configuration: configuration)
        } catch {
            throw CommandFailure(String(describing: error))
        }
        let host = self.host
        let folder = self.folder
        let outcome = BlockingOutcome()
        Task {
            do {
                try await server.run { port in
                    let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
                    let base = "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)"
                    let text = """
                        cuekit: serving \(folder) at \(base)/
                          receiver page: \(base)/receiver
                          sender page:   \(base)/sender
                          senders:       ws://\(base.dropFirst("http://".count))/cast

                        """
                    FileHandle.standardOutput.write(Data(text.utf8))
                }
                outcome.finish(nil)
            } catch {
                outcome.finish("cannot serve on \(host):\(port): \(error)")
            }
        }
        if let failure = outcome.wait() { throw CommandFailure(failure) }
    }
}

/// The end of work run on the concurrency pool, waited for by a synchronous command.
final class BlockingOutcome: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failure: String?

    func finish(_ failure: String?) {
        lock.lock()
        self.failure = failure
        lock.unlock()
        semaphore.signal()
    }

    func wait() -> String? {
        semaphore.wait()
        lock.lock()
        defer { lock.unlock() }
        return failure
    }
}
