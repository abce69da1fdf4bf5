#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// What a test needs beyond the package and a moment, so that a quick run can leave it out.
///
/// Swift Testing's command line chooses tests by name only, so a suite (or test) that carries one
/// of these tags also carries ``SkippableByTag`` (`.skippableByTag`), which leaves it out when
/// `CUEKIT_SKIP_TAGS` names one of its tags. The fast lane:
/// `CUEKIT_SKIP_TAGS=chromium,network,peers,slow swift test`.
extension Tag {
    /// Runs headless Chromium, which a Cast receiver is.
    @Tag public static var chromium: Self
    /// Opens sockets: a server on the loopback interface, a client of one, or a program that
    /// listens (`cuekit serve`, `cuekit cast emulate`).
    @Tag public static var network: Self
    /// Runs a peer program to compare with: ttconv or pychromecast (from `.venv`), ffmpeg, xmllint.
    @Tag public static var peers: Self
    /// Takes seconds rather than milliseconds: a million cues, inputs of hundreds of megabytes.
    @Tag public static var slow: Self
}

/// Leaves a suite or test out (reported as skipped, with the reason) when the comma-separated
/// `CUEKIT_SKIP_TAGS` names one of its tags (`slow`, `chromium`, ...; see ``Testing/Tag``).
public struct SkippableByTag: TestTrait, SuiteTrait {
    /// A suite left out leaves out its tests; a tagged test inside an untagged suite carries the
    /// trait itself.
    public var isRecursive: Bool { false }

    /// The tag names `CUEKIT_SKIP_TAGS` lists.
    public static let skippedNames: Set<String> = {
        guard let value = getenv("CUEKIT_SKIP_TAGS") else { return [] }
        return Set(String(cString: value).split(separator: ",").map { name(of: String($0)) }.filter { !$0.isEmpty })
    }()

    /// `slow` for the tag `.slow` (whose description is `.slow`) and for the name `slow`.
    static func name(of tag: String) -> String {
        let trimmed = tag.split(separator: " ").joined()
        return trimmed.hasPrefix(".") ? String(trimmed.dropFirst()) : trimmed
    }

    public func prepare(for test: Test) async throws {
        let skipped = test.tags.map { Self.name(of: $0.description) }.filter(Self.skippedNames.contains).sorted()
        guard !skipped.isEmpty else { return }
        try await ConditionTrait.disabled("CUEKIT_SKIP_TAGS leaves out \(skipped.joined(separator: ", "))").prepare(for: test)
    }
}

extension Trait where Self == SkippableByTag {
    /// Left out when `CUEKIT_SKIP_TAGS` names one of the test's tags.
    public static var skippableByTag: Self { SkippableByTag() }
}
