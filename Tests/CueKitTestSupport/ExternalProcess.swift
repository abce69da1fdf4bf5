import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to completion and collects what it printed: the test support's one runner, for
/// tests that run `cuekit` itself (through ``CommandLineRun``) or a real client (Chromium, ffmpeg)
/// to compare against. A program left running while a test talks to it is a ``RunningCommand``.
///
/// Standard output and error go through files in a temporary directory, so that a program
/// printing a lot can never block on a full pipe; standard input is a pipe, written while the
/// program runs (a command may stop reading it early).
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
    /// `input`, in `directory` when given and with `environment` instead of the tests' own when
    /// given. Standard output goes to `standardOutputPath` when given (and is then not
    /// collected). With a `deadline` (seconds), a program still running then is killed (status
    /// 137): a guard against a hang, never a measurement.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        input: [UInt8] = [],
        standardOutputPath: String? = nil,
        deadline: Double? = nil,
        environment: [String: String]? = nil,
        directory: String? = nil
    ) -> Result {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let outputPath = standardOutputPath ?? scratch.file("stdout")
        let errorPath = scratch.file("stderr")
        writeBytes([], to: outputPath)
        writeBytes([], to: errorPath)
        guard let path = executable.contains("/") ? executable : find(executable),
            let standardOutput = FileHandle(forWritingAtPath: outputPath),
            let standardError = FileHandle(forWritingAtPath: errorPath)
        else {
            return Result(status: 127, standardOutput: [], standardError: Array("cannot run \(executable)".utf8))
        }
        defer {
            try? standardOutput.close()
            try? standardError.close()
        }
        // A program that stops reading early closes the pipe: writing more must fail with EPIPE,
        // not end the test process.
        signal(SIGPIPE, SIG_IGN)
        let standardInput = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        do {
            try process.run()
        } catch {
            return Result(status: 127, standardOutput: [], standardError: Array("cannot run \(executable): \(error)".utf8))
        }
        let writer = standardInput.fileHandleForWriting
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? writer.write(contentsOf: Data(input))
            try? writer.close()
            written.signal()
        }
        if let deadline {
            let end = ContinuousClock.now.advanced(by: .milliseconds(Int(deadline * 1000)))
            while process.isRunning {
                if ContinuousClock.now >= end {
                    kill(process.processIdentifier, SIGKILL)
                    break
                }
                usleep(20_000)
            }
        }
        process.waitUntilExit()
        written.wait()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(
            status: status,
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
