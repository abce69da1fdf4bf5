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
              cuekit cast emulate --host 0.0.0.0 --announce --name "Test TV"   # findable by cuekit cast devices
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

    @Option(help: ArgumentHelp("The device's name, as discovery shows it.", valueName: "name"))
    var name = "CueKit emulator"

    @Flag(help: "Answer mDNS queries for _googlecast._tcp, so that `cuekit cast devices` and other senders find it.")
    var announce = false

    @Option(name: .customLong("mdns-port"), help: ArgumentHelp("The UDP port --announce answers on (5353 joins the mDNS group; 0 for any free one).", valueName: "port"))
    var mdnsPort = 5353

    @Option(name: .customLong("heartbeat-timeout"), help: ArgumentHelp("Seconds a silent sender is kept before it is disconnected.", valueName: "seconds"))
    var heartbeatTimeout = 15.0

    func validate() throws {
        guard (0...65_535).contains(port), (0...65_535).contains(httpPort) else { throw ValidationError("ports must be 0 to 65535") }
        guard heartbeatTimeout > 0 else { throw ValidationError("--heartbeat-timeout must be positive") }
        guard (0...65_535).contains(mdnsPort) else { throw ValidationError("--mdns-port must be 0 to 65535") }
    }

    func run() throws {
        let server = try TrackServer.quiet(folder: folder, host: host, port: httpPort)
        var deviceConfiguration = CastV2Device.Configuration()
        deviceConfiguration.host = host
        deviceConfiguration.port = port
        deviceConfiguration.heartbeatTimeout = .milliseconds(Int(heartbeatTimeout * 1000))
        deviceConfiguration.log = { StandardError.write("cuekit: \($0)\n") }
        let device = CastV2Device(configuration: deviceConfiguration, application: server.session)
        let host = self.host
        let name = self.name
        let announce = self.announce
        let mdnsPort = self.mdnsPort
        let outcome = BlockingOutcome()
        Task {
            do {
                let castPort = try await device.start()
                let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
                var announcer: CastDeviceAnnouncer?
                if announce {
                    let id = (0..<16).map { _ in String(Int.random(in: 0..<16), radix: 16) }.joined()
                    let advertised = host == "0.0.0.0" || host == "::" ? ((try? LocalAddress.toward("224.0.0.251")) ?? shown) : host
                    let info = CastDeviceInfo(name: name, model: "CueKit Cast emulator", id: id, host: advertised, port: castPort)
                    let started = CastDeviceAnnouncer(device: info)
                    let bound = try await started.start(host: host == "::" ? "0.0.0.0" : host, port: mdnsPort)
                    FileHandle.standardOutput.write(Data("cuekit: announced as \"\(name)\" by mDNS on UDP port \(bound)\n".utf8))
                    announcer = started
                }
                try await withThrowingTaskGroup { group in
                    group.addTask {
                        try await server.run { httpPort in
                            let text = """
                                cuekit: Cast device on \(shown):\(castPort) (TLS, Cast v2)
                                  receiver page: http://\(shown):\(httpPort)/receiver

                                """
                            FileHandle.standardOutput.write(Data(text.utf8))
                        }
                    }
                    group.addTask { try await device.run() }
                    if let announcer { group.addTask { try await announcer.run() } }
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
