// cuekit-cast: the commands of `cuekit` that talk to the network (serve, cast send, play, tracks,
// restyle, devices, emulate), in an executable of their own so that `cuekit` never links SwiftNIO.
// `cuekit` lists these commands (``NetworkCommand``) and runs this executable with their command
// lines unread; they are declared here alone. It can also be run directly, with the same command
// lines.

import ArgumentParser
import CueKitCommandSupport

/// `cuekit-cast`: the network half of `cuekit`, under the same name and command lines.
@main
struct CueKitCastCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuekit",
        abstract: "Serve tracks to Cast receivers and drive Cast devices (the network commands of cuekit).",
        version: CommandLineMain.version,
        subcommands: [ServeCommand.self, FetchCommand.self, CastCommand.self]
    )

    /// Runs the command line (``CommandLineMain``): exit status 0, 1 or 2, as `cuekit`'s. Started
    /// by a `cuekit` of another version, it refuses to run (``CastExecutableHandshake``), exit 2.
    static func main() async {
        do {
            try CastExecutableHandshake.check()
        } catch {
            CommandLineMain.exit(after: error, Self.self)
        }
        await CommandLineMain.runAwaiting(Self.self)
    }
}

/// `cuekit cast`: the Cast commands that reach a receiver or a device.
struct CastCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cast",
        abstract: "Send Cast messages, drive Cast devices, and run one.",
        subcommands: [CastSendCommand.self, CastPlayCommand.self, CastTracksCommand.self, CastRestyleCommand.self, CastDevicesCommand.self, CastEmulateCommand.self]
    )
}
