import CueKitTestSupport

/// Runs the built `cuekit` binary for the Cast commands' tests and collects what it did.
enum CastCLI {
    /// What one run did.
    struct Run: CustomStringConvertible {
        var status: Int32
        var standardOutput: String
        var standardError: String

        var description: String { "exit \(status)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)" }
    }

    /// The `cuekit` binary, built into the same folder as the test bundle.
    static let binary: String = {
        let bundle = CommandLine.arguments[0]
        let folder = bundle.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let beside = folder + "/cuekit"
        return TestPaths.exists(beside) ? beside : TestPaths.packageRoot + "/.build/debug/cuekit"
    }()

    /// Runs `cuekit` with `arguments`, feeding `input` to its standard input.
    static func run(_ arguments: [String], input: String = "") throws -> Run {
        let result = ExternalProcess.run(binary, arguments, input: Array(input.utf8))
        return Run(status: result.status, standardOutput: result.output, standardError: result.error)
    }
}
