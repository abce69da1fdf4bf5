import CueKitTestSupport
import Foundation

/// Runs the built `cuekit` binary and captures what it does.
struct CLIRun {
    var status: Int32
    var standardOutput: [UInt8]
    var standardError: String

    var output: String { String(decoding: standardOutput, as: UTF8.self) }

    /// The `cuekit` binary beside the test bundle (the same build), or in `.build/debug`.
    static let executable: String = {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let candidates = [bundleDirectory + "/cuekit", TestPaths.packageRoot + "/.build/debug/cuekit"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }()

    /// Runs `cuekit` with `arguments`, waiting for it to exit.
    static func cuekit(_ arguments: [String]) throws -> CLIRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        // Standard error goes to a file, so that neither pipe can fill up and block the other.
        let errorPath = NSTemporaryDirectory() + "cuekit-stderr-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try error.close()
        let errorData = FileManager.default.contents(atPath: errorPath) ?? Data()
        return CLIRun(status: process.terminationStatus, standardOutput: [UInt8](outputData), standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// True when a program is on the `PATH`.
    static func isInstalled(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    /// Runs another program, returning its exit status and standard output.
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
