#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program run to its end as a child of `cuekit`, one of its output streams captured through a
/// pipe: `cuekit fetch` for `convert --fetch` (``CastExecutable``), ffmpeg's scene detection
/// (``FFmpegSceneDetection``).
enum ChildProcess {
    /// What a child left: what it wrote on the captured stream, and its exit status (128 + the
    /// signal's number when a signal ended it).
    struct Finished {
        var output: [UInt8]
        var status: Int32
    }

    /// Runs `arguments` (the program's path or, `searchingPath`, its name on `PATH`, first), its
    /// stream `captured` (1 or 2) read back, `silenced` streams on `/dev/null` (standard input
    /// read from it). The child takes Ctrl-C and SIGTERM as a program does: `cuekit` blocks them
    /// for ``InterruptCleanup``, and a child would inherit that. Returns the `errno` of a child
    /// that could not be started.
    static func run(_ arguments: [String], searchingPath: Bool, captured: Int32, silenced: [Int32] = []) -> Result<Finished, Errno> {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return .failure(Errno(errno)) }
        defer { close(pipeEnds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for stream in silenced { posix_spawn_file_actions_addopen(&actions, stream, "/dev/null", stream == 0 ? O_RDONLY : O_WRONLY, 0) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], captured)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
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
        let strings = arguments.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        let vector = strings + [nil]
        var child: pid_t = 0
        let spawned =
            searchingPath
            ? posix_spawnp(&child, arguments[0], &actions, &attributes, vector, environ)
            : posix_spawn(&child, arguments[0], &actions, &attributes, vector, environ)
        close(pipeEnds[1])
        guard spawned == 0 else { return .failure(Errno(spawned)) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if count > 0 {
                output += chunk[..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        // `WIFEXITED` and `WEXITSTATUS`, which Swift does not import.
        let exited = status & 0x7F == 0
        return .success(Finished(output: output, status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)))
    }

    /// An `errno` value, as an error.
    struct Errno: Error {
        let code: Int32
        init(_ code: Int32) { self.code = code }
        var description: String { String(cString: strerror(code)) }
    }
}
