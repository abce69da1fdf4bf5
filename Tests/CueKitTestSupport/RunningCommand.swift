import Foundation

/// A program left running while a test talks to it (`cuekit serve`, `cuekit cast emulate`,
/// `cuekit cast play`, Chromium driven over DevTools): what it prints is collected as it comes,
/// and the test waits for a line, signals the program or stops it. A program run to completion
/// goes through ``CommandLineRun`` (the package's own) or ``ExternalProcess`` (any other).
public final class RunningCommand: @unchecked Sendable {
    /// The running program.
    public let process = Process()
    private let output = Pipe()
    private let lock = NSLock()
    private var collected = ""

    /// Starts the built `cuekit` with `arguments`, as ``init(_:_:in:standardError:environment:)`` does.
    public convenience init(
        _ arguments: [String], in folder: String? = nil, standardError: FileHandle? = nil, environment: [String: String] = [:]
    ) throws {
        try self.init(CommandLineRun.executable, arguments, in: folder, standardError: standardError, environment: environment)
    }

    /// Starts `executable` with `arguments`, in `folder` when given, with `environment` added to
    /// this process's. Standard error goes to `standardError` when given, else into the collected
    /// output.
    public init(
        _ executable: URL, _ arguments: [String], in folder: String? = nil, standardError: FileHandle? = nil,
        environment: [String: String] = [:]
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        process.standardOutput = output
        process.standardError = standardError ?? output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            lock.withLock { collected += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    /// What the program printed so far.
    public var text: String { lock.withLock { collected } }

    /// Waits until `condition` holds for what the program printed, at most `seconds`, and less
    /// if the program ends first; returns whether it held.
    public func wait(seconds: Double = 10, until condition: (String) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition(text) { return true }
            if !process.isRunning {
                // What it printed last may still be on its way.
                usleep(100_000)
                return condition(text)
            }
            usleep(20_000)
        }
        return condition(text)
    }

    /// Waits (at most `seconds`) until the output has a line containing `fragment`.
    public func waitFor(_ fragment: String, seconds: Double = 10) -> Bool {
        wait(seconds: seconds) { $0.split(separator: "\n").contains { $0.contains(fragment) } }
    }

    /// Waits (at most 10 s) for the exit status; nil, and the program terminated, when it has
    /// not ended by then.
    public func exitStatus() -> Int32? {
        for _ in 0..<100 {
            if !process.isRunning { return process.terminationStatus }
            usleep(100_000)
        }
        process.terminate()
        return nil
    }

    /// Sends SIGINT (Ctrl-C), and waits for the exit status as ``exitStatus()`` does.
    public func interrupt() -> Int32? {
        kill(process.processIdentifier, SIGINT)
        return exitStatus()
    }

    /// Ends the program (SIGTERM) and waits until it has.
    public func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
