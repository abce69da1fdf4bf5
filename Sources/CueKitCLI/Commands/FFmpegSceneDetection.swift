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
        let arguments = ["ffmpeg"] + QCShotChanges.ffmpegArguments(media: media)
        let finished: ChildProcess.Finished
        switch ChildProcess.run(arguments, searchingPath: true, captured: 2, silenced: [0, 1]) {
        case .success(let done):
            finished = done
        case .failure(let error) where error.code == ENOENT:
            throw CommandFailure(
                "--shot-changes-from needs ffmpeg, which is not on PATH (Debian: apt install ffmpeg); or give --shot-changes FILE")
        case .failure(let error):
            throw CommandFailure("--shot-changes-from: cannot run ffmpeg: \(error.description)")
        }
        let text = String(decoding: finished.output, as: UTF8.self)
        guard finished.status == 0 else {
            let last = text.split(separator: "\n").last.map(String.init) ?? "no output"
            throw CommandFailure("--shot-changes-from: ffmpeg could not read \(media): \(last)")
        }
        return QCShotChanges.parse(ffmpegShowinfo: text)
    }
}
