import ArgumentParser
import CueKitCommandSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The commands that talk to the network, as `cuekit` knows them: their command lines (shared with
// `cuekit-cast`, in CueKitCommandSupport) give `cuekit`'s help, usage errors and completion
// scripts, and a command line that parses is handed to `cuekit-cast` (``CastExecutable``), which
// links SwiftNIO and does the work. `cuekit` itself never links the network stack: it starts in
// half the instructions, which counts when a pipeline runs it once per file.

/// `cuekit serve`, run by `cuekit-cast`.
struct ServeCommand: ParsableCommand {
    static let configuration = ServeOptions.command
    @OptionGroup var options: ServeOptions
    func run() throws { try CastExecutable.takeOver(Self.self) }
}

/// `cuekit cast send`, run by `cuekit-cast`.
struct CastSendCommand: ParsableCommand {
    static let configuration = CastSendOptions.command
    @OptionGroup var options: CastSendOptions
    func run() throws { try CastExecutable.takeOver(Self.self) }
}

/// `cuekit cast play`, run by `cuekit-cast`.
struct CastPlayCommand: ParsableCommand {
    static let configuration = CastPlayOptions.command
    @OptionGroup var options: CastPlayOptions
    func run() throws { try CastExecutable.takeOver(Self.self) }
}

/// `cuekit cast tracks`, run by `cuekit-cast`.
struct CastTracksCommand: ParsableCommand {
    static let configuration = CastTracksOptions.command
    @OptionGroup var options: CastTracksOptions
    func run() throws { try CastExecutable.takeOver(Self.self) }
}

/// `cuekit cast restyle`, run by `cuekit-cast`.
struct CastRestyleCommand: ParsableCommand {
    static let configuration = CastRestyleOptions.command
    @OptionGroup var options: CastRestyleOptions
    func run() throws { try CastExecutable.takeOver(Self.self) }
}

/// `cuekit cast devices`, run by `cuekit-cast`.
struct CastDevicesCommand: ParsableCommand {
    static let configuration = CastDevicesOptions.command
    @OptionGroup var options: CastDevicesOptions
    func run() throws { try CastExecutable.takeOver(Self.self) }
}

/// `cuekit cast emulate`, run by `cuekit-cast`.
struct CastEmulateCommand: ParsableCommand {
    static let configuration = CastEmulateOptions.command
    @OptionGroup var options: CastEmulateOptions
    func run() throws { try CastExecutable.takeOver(Self.self) }
}

/// The `cuekit-cast` executable, installed beside `cuekit`.
enum CastExecutable {
    static let name = "cuekit-cast"

    /// Replaces this process with `cuekit-cast` to run `command`, given this process's arguments: its output, exit
    /// status and signals are the command's. It is looked for beside `cuekit` (the executable
    /// itself, then the path it was started by), then on `PATH`. Returns only by throwing, when it
    /// is found nowhere.
    static func takeOver(_ command: any ParsableCommand.Type) throws -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var places: [String] = []
        for folder in folders() where !places.contains(folder) {
            places.append(folder)
            execute(folder + "/" + name, arguments, searchingPath: false)
        }
        execute(name, arguments, searchingPath: true)
        let commandName = command.configuration.commandName ?? ""
        let path = command is ServeCommand.Type ? "cuekit \(commandName)" : "cuekit cast \(commandName)"
        throw CommandFailure(
            "\(path) runs in \(name), which is neither beside cuekit (in \(places.joined(separator: ", "))) nor on PATH; "
                + "build it with 'swift build -c release --static-swift-stdlib --product \(name)' and keep it beside cuekit")
    }

    /// The folders `cuekit` is in: where the running executable is, and where the path it was
    /// started by points (a symbolic link's own folder).
    private static func folders() -> [String] {
        var found: [String] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            found.append(folder(of: path))
        }
        let started = CommandLine.arguments.first ?? ""
        if started.contains("/") { found.append(folder(of: started)) }
        return found
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `execv` (or `execvp`, which searches `PATH`); returns only when it fails.
    private static func execute(_ path: String, _ arguments: [String], searchingPath: Bool) {
        let strings = ([path] + arguments).map { strdup($0) }
        defer { strings.forEach { free($0) } }
        let vector = strings + [nil]
        _ = searchingPath ? execvp(path, vector) : execv(path, vector)
    }
}
