import CueKit
import CueKitCommandSupport
import CueKitConversion
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Many inputs converted into one folder, in parallel on `jobs` threads. A file that fails is
/// reported in one line naming it, and the others are still converted.
struct BatchConversion {
    let inputs: [String]
    let outputDirectory: String
    let jobs: Int
    let settings: ConversionSettings

    /// What became of one input.
    enum FileResult: Sendable {
        case converted(TrackConversion.Outcome)
        /// The input could not be converted; nothing was written for it.
        case failed(String)
    }

    /// The output path of each input: its name, with the output format's extension, in the folder.
    static func outputPaths(for inputs: [String], in directory: String, format: TrackFormat) -> [String] {
        let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return inputs.map { input in
            var name = Substring(input.split(separator: "/").last ?? Substring(input))
            if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
            return "\(folder)/\(name).\(format.preferredFileExtension)"
        }
    }

    /// Converts every input; results are in the order of `inputs`.
    func run() -> [FileResult] {
        let outputs = Self.outputPaths(for: inputs, in: outputDirectory, format: settings.outputFormat)
        let state = BatchState(count: inputs.count)
        let progress = StandardError.isTerminal ? ProgressBar(total: inputs.count, noun: "file") : nil
        progress?.start { state.finishedCount }
        let job = ConversionJob(settings: settings)
        let inputs = self.inputs
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, inputs.count))) { _ in
            while let index = state.next() {
                let result: FileResult
                do {
                    try Self.refuseLinkOutOfFolder(outputs[index], folder: outputDirectory)
                    let outcome = try job.run(input: inputs[index], output: outputs[index])
                    if let stopped = outcome.stoppedBy { ConvertCommand.reportStopped(stopped, input: inputs[index], outcome: outcome) }
                    result = .converted(outcome)
                } catch let failure as CommandFailure {
                    StandardError.write(failure.line + "\n")
                    result = .failed(failure.message)
                } catch let error as WriteError {
                    StandardError.write("cuekit: error: \(error.message.escapingControlCharacters)\n")
                    result = .failed(error.message)
                } catch let error as ReadError {
                    // A located diagnostic says where and how bad on its own; an I/O failure gets the prefix.
                    let located = error.diagnostic.code != IOFailure.readCode
                    let message = located ? error.inFile(inputs[index]).description : error.diagnostic.message
                    StandardError.write((located ? "" : "cuekit: error: ") + message.escapingControlCharacters + "\n")
                    result = .failed(message)
                } catch {
                    let message = "\(inputs[index]): \(error)"
                    StandardError.write("cuekit: error: \(message.escapingControlCharacters)\n")
                    result = .failed(message)
                }
                state.finish(index, result)
            }
        }
        progress?.stop()
        return state.results
    }
}

extension BatchConversion {
    /// An output that is a symbolic link to a file outside the output folder is refused: a link
    /// planted in a shared folder must not make `--output-dir` replace a file elsewhere. (A single
    /// `-o` names its target and follows it.)
    static func refuseLinkOutOfFolder(_ output: String, folder: String) throws {
        var status = stat()
        guard lstat(output, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return }
        guard let folderPath = realPath(folder) else { throw IOFailure.writing(output, errno: errno) }
        // The link's target may not exist yet: resolve its folder.
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(output, &target, target.count - 1)
        guard length >= 0 else { throw IOFailure.writing(output, errno: errno) }
        var destination = String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if !destination.hasPrefix("/") { destination = Self.parentFolder(of: output) + "/" + destination }
        let resolved = realPath(destination) ?? realPath(Self.parentFolder(of: destination)).map { $0 + "/" + (destination.split(separator: "/").last.map(String.init) ?? "") }
        guard let resolved, resolved.hasPrefix(folderPath + "/") else {
            throw CommandFailure(
                "'\(output)' is a symbolic link to '\(resolved ?? destination)', outside the output folder; it is not followed (remove the link, or convert that file with -o)",
                status: .invalidInput)
        }
    }

    /// The folder a path is in (`.` for a bare name).
    private static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// The work queue and results of a batch, shared by its threads.
private final class BatchState: Sendable {
    private let queue: Mutex<(next: Int, finished: Int, results: [BatchConversion.FileResult?])>
    private let count: Int

    init(count: Int) {
        self.count = count
        queue = Mutex((0, 0, Array(repeating: nil, count: count)))
    }

    /// The next input to convert, or nil when none is left.
    func next() -> Int? {
        queue.withLock { state in
            guard state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func finish(_ index: Int, _ result: BatchConversion.FileResult) {
        queue.withLock { state in
            state.results[index] = result
            state.finished += 1
        }
    }

    var finishedCount: Int { queue.withLock { $0.finished } }

    var results: [BatchConversion.FileResult] { queue.withLock { $0.results.map { $0! } } }
}

/// A one-line progress bar on standard error, drawn only once the work has taken half a second, and
/// only when standard error is a terminal (never on a pipe or in a log file).
final class ProgressBar: Sendable {
    private let total: Int
    private let noun: String
    private let running = Mutex(true)
    private let drawn = Mutex(false)
    private let done = DispatchSemaphore(value: 0)

    init(total: Int, noun: String) {
        self.total = total
        self.noun = noun
    }

    /// Starts drawing `progress()` (how many are done) ten times a second, after half a second.
    func start(_ progress: @escaping @Sendable () -> Int) {
        let thread = DispatchQueue(label: "cuekit.progress")
        thread.async { [self] in
            if done.wait(timeout: .now() + .milliseconds(500)) == .success { return }
            while running.withLock({ $0 }) {
                draw(progress())
                if done.wait(timeout: .now() + .milliseconds(100)) == .success { break }
            }
        }
    }

    /// Stops drawing and clears the line.
    func stop() {
        running.withLock { $0 = false }
        done.signal()
        if drawn.withLock({ $0 }) { StandardError.write("\r\u{1B}[K") }
    }

    private func draw(_ finished: Int) {
        drawn.withLock { $0 = true }
        let width = 30
        let filled = total == 0 ? width : finished * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        StandardError.write("\r\u{1B}[K[\(bar)] \(finished)/\(total) \(noun)s")
    }
}

/// Ctrl-C (`SIGINT`) and `SIGTERM` during a conversion: every temporary file is removed, so that
/// nothing half-written is left behind and no destination is touched, then the process exits with
/// 128 + the signal number (130 for Ctrl-C).
///
/// The signals are blocked in every thread and taken by one thread in `sigwait`, so the cleanup
/// runs as ordinary code (``TemporaryFiles`` is guarded by a lock, which a raw signal handler must
/// not take).
enum InterruptCleanup {
    /// A folder of temporary files to remove too, whole (a fetched rendition), while one exists.
    static let folder = Mutex<String?>(nil)

    /// Call before starting any other thread.
    static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { _ in
                var signals = sigset_t()
                sigemptyset(&signals)
                sigaddset(&signals, SIGINT)
                sigaddset(&signals, SIGTERM)
                var received: Int32 = 0
                while sigwait(&signals, &received) != 0 {}
                TemporaryFiles.removeAllForExit()
                if let folder = InterruptCleanup.folder.withLock({ $0 }) { RemoteInput.removeTree(folder) }
                StandardError.write("\ncuekit: interrupted; no partial output was left behind\n")
                _exit(128 + received)
            }, nil)
        pthread_detach(thread)
    }
}
