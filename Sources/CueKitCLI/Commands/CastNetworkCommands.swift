import ArgumentParser
import CueKitCommandSupport

// The commands that talk to the network, as `cuekit` knows them: a name and an abstract each
// (``NetworkCommand``), so that `cuekit --help` and `cuekit cast --help` list them, and nothing
// else. Their command lines are `cuekit-cast`'s alone: `cuekit` hands everything after the
// command's name to `cuekit-cast` unread (``CastExecutable``), which parses it, gives its help
// and usage errors, and does the work. `cuekit` itself never links the network stack: it starts
// in a fraction of the instructions, which counts when a pipeline runs it once per file.

/// Everything after a network command's name, unread, for `cuekit-cast` to parse.
struct HandedOverArguments: ParsableArguments {
    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp("The command's arguments, read by cuekit-cast (the command's --help lists them).", valueName: "argument"))
    var arguments: [String] = []
}

/// A network command in `cuekit`'s command tree: it runs by handing its arguments to `cuekit-cast`.
protocol HandedOverCommand: ParsableCommand {
    static var networkCommand: NetworkCommand { get }
    var handedOver: HandedOverArguments { get }
}

extension HandedOverCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: networkCommand.name, abstract: networkCommand.abstract,
            discussion: "Runs in cuekit-cast; 'cuekit \(networkCommand.path.joined(separator: " ")) --help' shows its options.")
    }

    func run() throws { try CastExecutable.takeOver(Self.networkCommand, arguments: handedOver.arguments) }
}

/// `cuekit serve`, run by `cuekit-cast`.
struct ServeCommand: HandedOverCommand {
    static let networkCommand = NetworkCommand.serve
    @OptionGroup var handedOver: HandedOverArguments
}

/// `cuekit fetch`, run by `cuekit-cast`.
struct FetchCommand: HandedOverCommand {
    static let networkCommand = NetworkCommand.fetch
    @OptionGroup var handedOver: HandedOverArguments
}

/// `cuekit cast send`, run by `cuekit-cast`.
struct CastSendCommand: HandedOverCommand {
    static let networkCommand = NetworkCommand.castSend
    @OptionGroup var handedOver: HandedOverArguments
}

/// `cuekit cast play`, run by `cuekit-cast`.
struct CastPlayCommand: HandedOverCommand {
    static let networkCommand = NetworkCommand.castPlay
    @OptionGroup var handedOver: HandedOverArguments
}

/// `cuekit cast tracks`, run by `cuekit-cast`.
struct CastTracksCommand: HandedOverCommand {
    static let networkCommand = NetworkCommand.castTracks
    @OptionGroup var handedOver: HandedOverArguments
}

/// `cuekit cast restyle`, run by `cuekit-cast`.
struct CastRestyleCommand: HandedOverCommand {
    static let networkCommand = NetworkCommand.castRestyle
    @OptionGroup var handedOver: HandedOverArguments
}

/// `cuekit cast devices`, run by `cuekit-cast`.
struct CastDevicesCommand: HandedOverCommand {
    static let networkCommand = NetworkCommand.castDevices
    @OptionGroup var handedOver: HandedOverArguments
}

/// `cuekit cast emulate`, run by `cuekit-cast`.
struct CastEmulateCommand: HandedOverCommand {
    static let networkCommand = NetworkCommand.castEmulate
    @OptionGroup var handedOver: HandedOverArguments
}
