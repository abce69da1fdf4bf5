import CueKit

/// Where tests find their inputs: the package's own `Fixtures/`, and the third-party conformance
/// suites vendored, with their licences, in `Fixtures/conformance/`.
public enum TestPaths {
    /// The package root, found from this file's path.
    public static let packageRoot: String = {
        var components = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)  // Tests/CueKitTestSupport/Paths.swift
        return components.joined(separator: "/")
    }()

    /// `Fixtures/` in the package.
    public static var fixtures: String { packageRoot + "/Fixtures" }

    /// `Fixtures/conformance`: web-platform-tests' and vtt.js's WebVTT suites, and the TTML corpus
    /// with ttconv's readings of it (see `Fixtures/conformance/*/README.md` for sources and licences).
    public static var conformance: String { fixtures + "/conformance" }

    /// A fixture's full path: `fixture("webvtt/settings-align.vtt")`.
    public static func fixture(_ relativePath: String) -> String { fixtures + "/" + relativePath }

    /// The bytes of a file.
    public static func bytes(_ path: String) throws -> [UInt8] {
        try FileByteSource(path: path).readAll()
    }

    /// The files below `directory` (recursively) whose names end with one of `suffixes`, sorted.
    public static func files(in directory: String, suffixes: [String]) -> [String] {
        FileTree.files(in: directory).filter { path in suffixes.contains { path.hasSuffix($0) } }.sorted()
    }

    /// The project's own fixtures whose names end with one of `suffixes`, sorted: every file below
    /// `Fixtures/` but the vendored conformance suites, which their own tests walk.
    public static func projectFixtures(suffixes: [String]) -> [String] {
        files(in: fixtures, suffixes: suffixes).filter { !$0.hasPrefix(conformance + "/") }
    }

    /// True when a file or directory exists.
    public static func exists(_ path: String) -> Bool { FileTree.exists(path) }
}
