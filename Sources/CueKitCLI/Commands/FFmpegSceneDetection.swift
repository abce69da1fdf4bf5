import CueKitCommandSupport
import CueKitQC

#if canImport(Glibc)
    import Glibc
#endif

/// `--shot-changes-from MEDIA`: the shot changes ffmpeg's scene detection finds in a video
/// (``QCShotChanges/ffmpegArguments(media:)``, threshold ``QCShotChanges/ffmpegSceneThreshold``).
enum FFmpegSceneDetection {
    /// Runs `ffmpeg` (found on `PATH`) over `media` and returns the shot changes in milliseconds.
    static func shotChanges(in media: String) throws -> [Int] {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw CommandFailure("--shot-changes-from: cannot make a pipe for ffmpeg") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])

        let arguments = ["ffmpeg"] + QCShotChanges.ffmpegArguments(media: media)
        var vector: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in vector { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawnp(&child, "ffmpeg", &actions, nil, &vector, environ)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else {
            if spawned == ENOENT {
                throw CommandFailure(
                    "--shot-changes-from needs ffmpeg, which is not on PATH (Debian: apt install ffmpeg); or give --shot-changes FILE")
            }
            throw CommandFailure("--shot-changes-from: cannot run ffmpeg: \(String(cString: strerror(spawned)))")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if count > 0 {
                output += buffer[..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let text = String(decoding: output, as: UTF8.self)
        // Exited normally with status 0 (`WIFEXITED` and `WEXITSTATUS`, which Swift does not import).
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            let last = text.split(separator: "\n").last.map(String.init) ?? "no output"
            throw CommandFailure("--shot-changes-from: ffmpeg could not read \(media): \(last)")
        }
        return QCShotChanges.parse(ffmpegShowinfo: text)
    }
}
