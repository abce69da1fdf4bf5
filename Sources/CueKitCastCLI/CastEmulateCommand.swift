import ArgumentParser
import CueKitCast
import CueKitCastV2
import CueKitCommandSupport
import CueKitServer
import Foundation

/// `cuekit cast emulate`: a Cast device on this machine, for development and tests.
struct CastEmulateCommand: AsyncParsableCommand {
    static let configuration = CastEmulateOptions.command

    @OptionGroup var options: CastEmulateOptions

    func run() async throws {
        let server = try TrackServer.quiet(folder: options.folder, host: options.host, port: options.httpPort)
        var deviceConfiguration = CastV2Device.Configuration()
        deviceConfiguration.host = options.host
        deviceConfiguration.port = options.port
        deviceConfiguration.heartbeatTimeout = .milliseconds(Int(options.heartbeatTimeout * 1000))
        deviceConfiguration.maximumSendersPerConnection = options.maximumSendersPerConnection
        deviceConfiguration.maximumSenders = options.maximumSenders
        deviceConfiguration.maximumQueuedBytesPerConnection = options.maximumQueuedBytes
        deviceConfiguration.log = { StandardError.write("cuekit: \($0)\n") }
        let device = CastV2Device(configuration: deviceConfiguration, application: server.session)
        let host = options.host
        let port = options.port
        let name = options.name
        let announce = options.announce
        let mdnsPort = options.mdnsPort
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
        } catch {
            throw CommandFailure("cannot run the Cast device on \(host):\(port): \(error)")
        }
    }
}
