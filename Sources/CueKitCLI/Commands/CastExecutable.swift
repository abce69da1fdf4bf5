import ArgumentParser
import CueKitCommandSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `cuekit-cast` executable, installed beside `cuekit`: the network commands run in it.
enum CastExecutable {
    static let name = "cuekit-cast"

    /// Replaces this process with `cuekit-cast` running `command` with `arguments` (those after
    /// the command's name, as given): its output, exit status and signals are the command's. The
    /// environment names this `cuekit`'s version (``CastExecutableHandshake``), so that a
    /// `cuekit-cast` of another build refuses to run. `cuekit-cast` is looked for beside `cuekit`
    /// (the executable itself, then the path it was started by), then on `PATH`. Returns only by
    /// throwing, when it is found nowhere.
    static func takeOver(_ command: NetworkCommand, arguments: [String]) throws -> Never {
        let handedOver = command.path + arguments
        CastExecutableHandshake.announce()
        var places: [String] = []
        for folder in folders() where !places.contains(folder) {
            places.append(folder)
            execute(folder + "/" + name, handedOver, searchingPath: false)
        }
        execute(name, handedOver, searchingPath: true)
        throw CommandFailure(
            "cuekit \(command.path.joined(separator: " ")) runs in \(name), which is neither beside cuekit (in \(places.joined(separator: ", "))) nor on PATH; "
                + "build it with 'swift build -c release --static-swift-stdlib --product \(name)' and keep it beside cuekit")
    }

    /// Runs `cuekit-cast` with `command` and `arguments` as a child process, found as
    /// ``takeOver(_:arguments:)`` finds it, its standard error the terminal's, and waits for it.
    /// Returns what it printed on standard output; throws its exit status when it fails (having
    /// said why on standard error), or a ``CommandFailure`` when it is found nowhere.
    static func output(of command: NetworkCommand, arguments: [String]) throws -> String {
        CastExecutableHandshake.announce()
        let places = folders().map { ($0 + "/" + name, false) } + [(name, true)]
        for (path, searchingPath) in places {
            guard case .success(let finished) = ChildProcess.run([path] + command.path + arguments, searchingPath: searchingPath, captured: 1)
            else { continue }
            guard finished.status == 0 else { throw ExitCode(finished.status) }
            return String(decoding: finished.output, as: UTF8.self)
        }
        throw CommandFailure(
            "cuekit \(command.path.joined(separator: " ")) runs in \(name), which is neither beside cuekit nor on PATH; "
                + "build it with 'swift build -c release --static-swift-stdlib --product \(name)' and keep it beside cuekit")
    }

    /// The folders `cuekit` is in: where the running executable is, and where the path it was
    /// started by points (a symbolic link's own folder).
    private static func folders() -> [String] {
        var found: [String] = []
        if let path = CastExecutableHandshake.runningExecutablePath { found.append(folder(of: path)) }
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
