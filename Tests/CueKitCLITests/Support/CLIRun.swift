import CueKitTestSupport

/// Runs the built `cuekit` binary (found by ``CommandLineRun/executable``) through
/// ``ExternalProcess``, keeping standard output as bytes: the generator's tests compare them exactly.
enum CLIRun {
    /// Runs `cuekit` with `arguments`, waiting for it to exit.
    static func cuekit(_ arguments: [String], input: [UInt8] = []) -> ExternalProcess.Result {
        ExternalProcess.run(CommandLineRun.executable.path, arguments, input: input)
    }

    /// True when a program is on the `PATH`.
    static func isInstalled(_ program: String) -> Bool { ExternalProcess.find(program) != nil }
}
