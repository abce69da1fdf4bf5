import ArgumentParser
import CueKitCommandSupport
import CueKitServer
import Foundation

/// `cuekit serve FOLDER`: the track server, receiver page and sender socket, until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = ServeOptions.command

    @OptionGroup var options: ServeOptions

    func run() async throws {
        var configuration = TrackServer.Configuration(folder: options.folder)
        configuration.host = options.host
        configuration.port = options.port
        configuration.maximumConnections = options.maxConnections
        configuration.maximumMessageBytes = options.maxMessageBytes.bytes
        configuration.timeouts = ConnectionTimeouts(header: .seconds(options.headerTimeout), idle: .seconds(options.idleTimeout))
        configuration.shutdownGrace = .seconds(options.shutdownGrace)
        configuration.preferredLanguage = options.language
        configuration.accessLog = options.quiet ? .none : .standardError
        if let threads = options.conversionThreads { configuration.conversions.threads = threads }
        configuration.conversions.maximumWaiting = options.maxWaitingConversions
        configuration.conversions.maximumBytes = options.conversionCacheBytes.bytes
        configuration.conversions.maximumEntries = options.conversionCacheEntries
        configuration.compression.maximumBytes = options.gzipCacheBytes.bytes
        configuration.compression.maximumCompressions = options.gzipCompressions
        configuration.maximumSenderQueueBytes = options.maxSenderQueueBytes.bytes
        let origins = options.origins
        configuration.allowedOrigins = options.noCORS ? .none : origins.isEmpty ? .any : .only(origins)
        let server: TrackServer
        do {
            server = try TrackServer(configuration: configuration)
        } catch {
            throw CommandFailure(String(describing: error))
        }
        let host = options.host
        let folder = options.folder
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
        } catch {
            throw CommandFailure("cannot serve on \(host):\(options.port): \(error)")
        }
    }
}
