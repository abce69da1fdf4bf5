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
        var places = folders().map { $0 + "/" + name }
        places.append(name)
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw CommandFailure("cannot run \(name): \(String(cString: strerror(errno)))") }
        defer { close(pipe[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        // The child takes Ctrl-C and SIGTERM as a program does (this process blocks them, for
        // ``InterruptCleanup``, and a child would inherit that).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), interrupts = sigset_t()
        sigemptyset(&none)
        sigemptyset(&interrupts)
        sigaddset(&interrupts, SIGINT)
        sigaddset(&interrupts, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &interrupts)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        var started = false
        for (index, path) in places.enumerated() {
            let strings = ([path] + command.path + arguments).map { strdup($0) }
            defer { strings.forEach { free($0) } }
            let vector = strings + [nil]
            let searches = index == places.count - 1
            let status = searches ? posix_spawnp(&child, path, &actions, &attributes, vector, environ) : posix_spawn(&child, path, &actions, &attributes, vector, environ)
            if status == 0 {
                started = true
                break
            }
        }
        close(pipe[1])
        guard started else {
            throw CommandFailure(
                "cuekit \(command.path.joined(separator: " ")) runs in \(name), which is neither beside cuekit nor on PATH; "
                    + "build it with 'swift build -c release --static-swift-stdlib --product \(name)' and keep it beside cuekit")
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
            if count > 0 {
                output += chunk[..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        guard code == 0 else { throw ExitCode(code) }
        return String(decoding: output, as: UTF8.self)
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
