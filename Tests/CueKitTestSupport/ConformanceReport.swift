import Foundation

/// The one-line counts a conformance suite arrives at (`49/49 tests passed`), printed only when
/// `CUEKIT_CONFORMANCE_REPORT` is set: a passing run stays quiet, and the README's conformance
/// table can be checked with `CUEKIT_CONFORMANCE_REPORT=1 swift test --skip-build --filter Conformance`.
public enum ConformanceReport {
    /// True when the counts are asked for.
    public static var isRequested: Bool { ProcessInfo.processInfo.environment["CUEKIT_CONFORMANCE_REPORT"] != nil }

    /// Prints `line` when the counts are asked for.
    public static func note(_ line: @autoclosure () -> String) {
        if isRequested { print(line()) }
    }
}
