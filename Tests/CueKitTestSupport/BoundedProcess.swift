/// Runs a program with a cap on its address space and a deadline, for tests that feed hostile input
/// to `cuekit`: a program that tries to take unbounded memory fails (an allocation fails, and Swift
/// traps) instead of making the machine swap, and one that hangs is killed.
///
/// It wraps the program in `timeout` (coreutils) and `prlimit` (util-linux), both part of every
/// Debian system. The deadline is only a guard against a hang, never a measurement: make it
/// generous.
public enum BoundedProcess {
    /// What a bounded run gave.
    public struct Result: Sendable {
        /// The program's own result (status 137 when the deadline killed it).
        public var run: ExternalProcess.Result
        /// True when the deadline passed and the program was killed.
        public var timedOut: Bool { run.status == 124 || run.status == 137 }
        /// True when the program ended on a signal (a crash or a trap) rather than exiting.
        public var crashed: Bool { run.status > 128 }
        /// The exit status.
        public var status: Int32 { run.status }
        /// Standard error as UTF-8.
        public var error: String { run.error }
        /// Standard output as UTF-8.
        public var output: String { run.output }
    }

    /// True when `timeout` and `prlimit` are installed.
    public static var isAvailable: Bool {
        ExternalProcess.find("timeout") != nil && ExternalProcess.find("prlimit") != nil
    }

    /// Runs `executable` with `arguments`, its address space capped at `addressSpace` bytes and
    /// killed after `deadline` seconds. Standard output goes to `standardOutputPath` when given.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        addressSpace: Int = 2 << 30,
        deadline: Int = 120,
        input: [UInt8] = [],
        standardOutputPath: String? = nil
    ) -> Result {
        let wrapped = ["--signal=KILL", String(deadline), "prlimit", "--as=\(addressSpace)", "--core=0", "--", executable] + arguments
        return Result(run: ExternalProcess.run("timeout", wrapped, input: input, standardOutputPath: standardOutputPath))
    }
}
