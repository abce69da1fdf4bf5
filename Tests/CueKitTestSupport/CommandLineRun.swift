import Foundation

/// Runs a program the package builds (the `cuekit` command, the examples), which sits next to the
/// test bundle in the build products, in the package folder, through ``ExternalProcess``; its
/// output as text and as bytes.
public struct CommandLineRun: CustomStringConvertible, Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
    /// Standard output as the bytes written, for exact comparisons.
    public var outputBytes: [UInt8]

    public var description: String { "exit \(status)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)" }

    /// The built `cuekit`.
    public static var executable: URL { product("cuekit") }

    /// The built program `name`, in the build products folder.
    public static func product(_ name: String) -> URL {
        let me = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        var folder = me.deletingLastPathComponent()
        // On Apple platforms the bundle's executable is inside `X.xctest/Contents/MacOS`.
        while folder.pathExtension == "xctest" || ["Contents", "MacOS"].contains(folder.lastPathComponent) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent(name)
    }

    /// True when `cuekit` is built next to the tests.
    public static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Runs `cuekit arguments...` with `input` on standard input, in the package folder.
    public static func cuekit(_ arguments: [String], input: [UInt8] = []) throws -> CommandLineRun {
        try run(executable, arguments, input: input)
    }

    /// Runs the program at `executable` with `arguments` and `input` on standard input, in
    /// `directory` (the package folder unless given); with `environment`, in that environment
    /// instead of the tests' own.
    public static func run(
        _ executable: URL, _ arguments: [String], input: [UInt8] = [], environment: [String: String]? = nil, in directory: URL? = nil
    ) throws -> CommandLineRun {
        let run = ExternalProcess.run(
            executable.path, arguments, input: input, environment: environment, directory: directory?.path ?? TestPaths.packageRoot)
        return CommandLineRun(status: run.status, standardOutput: run.output, standardError: run.error, outputBytes: run.standardOutput)
    }

    /// Runs `cuekit` with `input` as UTF-8 text on its standard input.
    public static func cuekit(_ arguments: [String], input: String) throws -> CommandLineRun {
        try cuekit(arguments, input: Array(input.utf8))
    }
}
