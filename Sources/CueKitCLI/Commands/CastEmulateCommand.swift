import ArgumentParser
import CueKitCast
import CueKitCastV2
import CueKitServer
import Foundation

/// `cuekit cast emulate`: a Cast device on this machine, for development and tests.
struct CastEmulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Run a Cast device: the Cast v2 channel on TLS, with CueKit's receiver as its media application.",
        discussion: """
            Senders connect to it by host and port as to a Chromecast: it answers the connection, \
            heartbeat and receiver namespaces, launches the Default Media Receiver (CC1AD845), and \
            hands its media namespace to the receiver `cuekit serve` runs, whose page shows what plays. \
            Its TLS certificate is made at start and signed by itself, as a device's is.

            Examples:
              cuekit cast emulate --folder media            # Cast v2 on 127.0.0.1:8009, tracks and page on :8010
              cuekit cast emulate --port 0 --http-port 0    # free ports, printed at start
            """
    )

    @Option(help: ArgumentHelp("The address to bind (0.0.0.0 for every interface).", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The Cast v2 (TLS) port (0 for any free one).", valueName: "port"))
    var port = 8009

    @Option(name: .customLong("http-port"), help: ArgumentHelp("The port of the track server and receiver page (0 for any free one).", valueName: "port"))
    var httpPort = 8010

    @Option(help: ArgumentHelp("The folder the track server serves.", valueName: "folder"))
    var folder = "."

    @Option(name: .customLong("heartbeat-timeout"), help: ArgumentHelp("Seconds a silent sender is kept before it is disconnected.", valueName: "seconds"))
    var heartbeatTimeout = 15.0

    func validate() throws {
        guard (0...65_535).contains(port), (0...65_535).contains(httpPort) else { throw ValidationError("ports must be 0 to 65535") }
        guard heartbeatTimeout > 0 else { throw ValidationError("--heartbeat-timeout must be positive") }
    }

    func run() throws {
        var serverConfiguration = TrackServer.Configuration(folder: folder)
        serverConfiguration.host = host
        serverConfiguration.port = httpPort
        serverConfiguration.accessLog = .none
        let server: TrackServer
        do {
            server = try TrackServer(configuration: serverConfiguration)
        } catch {
            throw CommandFailure(String(describing: error))
        }
        var deviceConfiguration = CastV2Device.Configuration()
        deviceConfiguration.host = host
        deviceConfiguration.port = port
        deviceConfiguration.heartbeatTimeout = .milliseconds(Int(heartbeatTimeout * 1000))
        let device = CastV2Device(configuration: deviceConfiguration, application: server.session)
        let host = self.host
        let outcome = BlockingOutcome()
        Task {
            do {
                let castPort = try await device.start()
                try await withThrowingTaskGroup { group in
                    group.addTask {
                        try await server.run { httpPort in
                            let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
                            let text = """
                                cuekit: Cast device on \(shown):\(castPort) (TLS, Cast v2)
                                  receiver page: http://\(shown):\(httpPort)/receiver

                                """
                            FileHandle.standardOutput.write(Data(text.utf8))
                        }
                    }
                    group.addTask { try await device.run() }
                    _ = try await group.next()
                    group.cancelAll()
                }
                outcome.finish(nil)
            } catch {
                outcome.finish("cannot run the Cast device on \(host):\(port): \(error)")
            }
        }
        if let failure = outcome.wait() { throw CommandFailure(failure) }
    }
}
