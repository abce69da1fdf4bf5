#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The check that `cuekit` and the `cuekit-cast` it runs come from one build: `cuekit` names its
/// version and path in the environment it hands over, and `cuekit-cast` refuses to run for a
/// `cuekit` of another version, since the command lines it would accept are not the ones that
/// `cuekit`'s help lists. `cuekit-cast` run by hand (no variables) runs as it is.
package enum CastExecutableHandshake {
    /// The version of the `cuekit` that started `cuekit-cast`.
    package static let callerVersionVariable = "CUEKIT_CAST_CALLER_VERSION"
    /// The path of the `cuekit` that started `cuekit-cast`, for the refusal's message.
    package static let callerPathVariable = "CUEKIT_CAST_CALLER_PATH"
    /// For tests only: the version `cuekit` claims to `cuekit-cast` in place of its own, so that a
    /// test can make a mismatched pair out of one build.
    package static let claimedVersionVariable = "CUEKIT_TEST_CLAIMED_VERSION"

    /// In `cuekit`, before it executes `cuekit-cast`: names this build's version (or the claimed
    /// one) and this executable's path in the environment the child inherits.
    package static func announce() {
        let version = environment(claimedVersionVariable) ?? CommandLineMain.version
        setenv(callerVersionVariable, version, 1)
        setenv(callerPathVariable, runningExecutablePath ?? CommandLine.arguments.first ?? "cuekit", 1)
    }

    /// In `cuekit-cast`, before it parses anything: throws when the `cuekit` that started it is of
    /// another version. The variables are removed, so that nothing this process starts sees them.
    package static func check() throws(CommandFailure) {
        guard let callerVersion = environment(callerVersionVariable) else { return }
        let callerPath = environment(callerPathVariable) ?? "cuekit"
        unsetenv(callerVersionVariable)
        unsetenv(callerPathVariable)
        guard callerVersion != CommandLineMain.version else { return }
        let ownPath = runningExecutablePath ?? CommandLine.arguments.first ?? "cuekit-cast"
        throw CommandFailure(
            "cuekit \(callerVersion) (\(callerPath)) and cuekit-cast \(CommandLineMain.version) (\(ownPath)) are different versions; "
                + "install the two from one build ('swift build -c release') and keep them side by side")
    }

    /// The running executable's path, links resolved (Linux's `/proc/self/exe`); nil where there
    /// is none.
    package static var runningExecutablePath: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
