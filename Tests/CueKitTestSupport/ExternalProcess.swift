#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program and collects what it printed: for tests that run `cuekit` itself, or a real
/// client (Chromium, ffmpeg) to compare against.
///
/// Standard input, output and error go through files in a temporary directory, so that a program
/// printing a lot can never block on a full pipe.
public enum ExternalProcess {
    /// What a run gave.
    public struct Result: Sendable {
        /// The exit status (128 + the signal number when a signal ended the program).
        public var status: Int32
        /// Standard output.
        public var standardOutput: [UInt8]
        /// Standard error.
        public var standardError: [UInt8]

        /// Standard output as UTF-8.
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error as UTF-8.
        public var error: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// Runs `executable` (a path, or a name looked up in `PATH`) with `arguments`, feeding it
    /// `input`. Standard output goes to `standardOutputPath` when given (and is then not collected).
    /// With a `deadline` (seconds), a program still running then is killed (status 137): a guard
    /// against a hang, never a measurement.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        input: [UInt8] = [],
        standardOutputPath: String? = nil,
        deadline: Double? = nil
    ) -> Result {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let inputPath = scratch.file("stdin")
        let outputPath = standardOutputPath ?? scratch.file("stdout")
        let errorPath = scratch.file("stderr")
        writeBytes(input, to: inputPath)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            return Result(status: 127, standardOutput: [], standardError: Array("cannot run \(executable): error \(spawned)".utf8))
        }
        var status: Int32 = 0
        if let deadline {
            let clock = ContinuousClock()
            let end = clock.now.advanced(by: .milliseconds(Int(deadline * 1000)))
            while true {
                let waited = waitpid(pid, &status, WNOHANG)
                if waited == pid || (waited < 0 && errno != EINTR) { break }
                if clock.now >= end {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                    break
                }
                usleep(20_000)
            }
        } else {
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
        let exited = (status & 0x7F) == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: code,
            standardOutput: standardOutputPath == nil ? readBytes(outputPath) : [],
            standardError: readBytes(errorPath))
    }

    /// True when `name` is a program on the `PATH`.
    public static func isInstalled(_ name: String) -> Bool { find(name) != nil }

    /// The full path of a program found in `PATH`, or `nil`.
    public static func find(_ name: String) -> String? {
        guard let path = getenv("PATH") else { return nil }
        for folder in String(cString: path).split(separator: ":") {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Writes a file (for inputs of programs under test).
    public static func writeBytes(_ bytes: [UInt8], to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        close(descriptor)
    }

    static func readBytes(_ path: String) -> [UInt8] {
        (try? TestPaths.bytes(path)) ?? []
    }
}
