import ArgumentParser
import CueKitCommandSupport
import CueKitServer
import Dispatch
import Foundation

struct ServeCommand: ParsableCommand {
    static let configuration = ServeOptions.command

    @OptionGroup var options: ServeOptions

    func run() throws {
        var configuration = TrackServer.Configuration(folder: options.folder)
        configuration.host = options.host
        configuration.port = options.port
        configuration.maximumConnections = options.maxConnections
        configuration.maximumMessageBytes = options.maxMessageBytes.bytes
        configuration.preferredLanguage = options.language
        configuration.accessLog = options.quiet ? .none : .standardError
        let origins = options.origins
        configuration.allowedOrigins = options.noCORS ? .none : origins.isEmpty ? .any : .only(origins)
        let server: TrackServer
        do {
            server = try TrackServer(configuration: configuration)
        } catch {
            throw CommandFailure(String(describing: error))
        }
        let host = options.host
        let port = options.port
        let folder = options.folder
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
