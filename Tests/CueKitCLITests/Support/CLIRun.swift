import CueKitTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `cuekit` binary, the one beside the test bundle (the same build), through
/// ``ExternalProcess``.
enum CLIRun {
    /// The `cuekit` binary beside the test bundle, or in `.build/debug`.
    static let executable: String = {
        let bundle = CommandLine.arguments[0]
        let bundleDirectory = bundle.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let candidates = [bundleDirectory + "/cuekit", TestPaths.packageRoot + "/.build/debug/cuekit"]
        return candidates.first { access($0, X_OK) == 0 } ?? candidates[1]
    }()

    /// Runs `cuekit` with `arguments`, waiting for it to exit.
    static func cuekit(_ arguments: [String], input: [UInt8] = []) -> ExternalProcess.Result {
        ExternalProcess.run(executable, arguments, input: input)
    }

    /// True when a program is on the `PATH`.
    static func isInstalled(_ program: String) -> Bool { ExternalProcess.find(program) != nil }
}
