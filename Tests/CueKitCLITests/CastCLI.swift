import CueKitTestSupport
import Foundation

/// Runs the built `cuekit` binary for the Cast commands' tests and collects what it did.
enum CastCLI {
    /// What one run did.
    struct Run: CustomStringConvertible {
        var status: Int32
        var standardOutput: String
        var standardError: String

        var description: String { "exit \(status)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)" }
    }

    /// The `cuekit` binary beside the test bundle (both are built into the same folder).
    static let binary: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle.appendingPathComponent("cuekit").path, TestPaths.packageRoot + "/.build/debug/cuekit"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return TestPaths.packageRoot + "/.build/debug/cuekit"
    }()

    /// Runs `cuekit` with `arguments` in `directory`, feeding `input` to its standard input.
    static func run(_ arguments: [String], in directory: String = TestPaths.packageRoot, input: String = "") throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        // Standard error goes to a file, standard output to a pipe read to its end: neither can
        // fill up and block the child.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("cuekit-cli-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errors = try FileHandle(forWritingTo: errorFile)
        let output = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput
        try process.run()
        try errors.close()
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = try Data(contentsOf: errorFile)
        return Run(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }
}
