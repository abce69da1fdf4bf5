// The cuekit command: argument parsing and output over the libraries (convert, segment, validate, inspect,
// style, cast, serve, generate); what a command does lives in the libraries. The commands that talk
// to the network (serve, cast send/play/tracks/restyle/devices/emulate) run in `cuekit-cast`, beside
// it, which is handed their command lines unread: see CastNetworkCommands.swift.

import ArgumentParser
import CueKitCommandSupport

/// `cuekit`: read, check, convert and style caption tracks.
///
/// Exit status, for every subcommand: 0 success, 1 the input is not valid (or some file of a batch
/// failed), 2 a usage or I/O error.
@main
struct CueKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuekit",
        abstract: "Read, check, convert and style caption and subtitle tracks (WebVTT, TTML, SubRip).",
        version: CommandLineMain.version,
        subcommands: [
            ConvertCommand.self, SegmentCommand.self, ValidateCommand.self, InspectCommand.self, StyleCommand.self, CastCommand.self, ServeCommand.self, FetchCommand.self, GenerateCommand.self,
        ]
    )

    /// Runs the command line (``CommandLineMain``): exit status 0, 1 or 2, as above. A network
    /// command's is handed to `cuekit-cast` before anything is parsed, exactly as given.
    static func main() {
        if let network = NetworkCommand.handedOver(Array(CommandLine.arguments.dropFirst())) {
            do {
                try CastExecutable.takeOver(network.command, arguments: network.arguments)
            } catch {
                CommandLineMain.exit(after: error, Self.self)
            }
        }
        CommandLineMain.run(Self.self)
    }
}
