import CueKitTestSupport
import Testing

/// The modules the `cuekit` binary links import FoundationEssentials, never the whole of
/// Foundation: one `import Foundation` brings Foundation, FoundationInternationalization and ICU's
/// data into the binary (20 MB stripped becomes 64 MB), and adds some 1,800 protocol conformance
/// records that ArgumentParser's reflection scans at every start-up (22.5 million instructions
/// become 27.4 million for `cuekit validate` of an empty track).
@Suite struct FoundationImportTests {
    /// The modules of `cuekit-cast` alone, which serve and reach devices with SwiftNIO and may
    /// import Foundation.
    static let networkModules: Set<String> = ["CueKitServer", "CueKitCastCLI", "CueKitCastV2", "CueKitCastSender"]

    /// True for a line importing all of Foundation (any access level or attribute).
    static func importsFoundation(_ line: Substring) -> Bool {
        let words = line.split(separator: " ")
        guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { return false }
        return words[index + 1] == "Foundation" && words[..<index].allSatisfy { $0.hasPrefix("@") || $0.hasSuffix("internal") || $0 == "public" || $0 == "package" }
    }

    @Test func theModulesCuekitLinksImportFoundationOnlyWhereFoundationEssentialsIsMissing() throws {
        let sources = TestPaths.packageRoot + "/Sources"
        let files = TestPaths.files(in: sources, suffixes: [".swift"])
        try #require(files.count > 100, "only \(files.count) Swift files found below \(sources)")
        var checked = 0
        for path in files {
            let module = path.dropFirst(sources.count + 1).prefix { $0 != "/" }
            guard !Self.networkModules.contains(String(module)) else { continue }
            checked += 1
            let lines = String(decoding: try TestPaths.bytes(path), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where Self.importsFoundation(line.drop { $0 == " " }) {
                // Allowed only as the fallback of `#if canImport(FoundationEssentials)`.
                let previous = lines[..<number].last { !$0.allSatisfy { $0 == " " } }?.drop { $0 == " " }
                #expect(
                    previous == "#else",
                    "\(path.dropFirst(TestPaths.packageRoot.count + 1)):\(number + 1) imports Foundation: import FoundationEssentials (under #if canImport(FoundationEssentials)) instead")
            }
        }
        #expect(checked > 100)
    }

    @Test func anImportOfFoundationIsRecognised() {
        #expect(Self.importsFoundation("import Foundation"))
        #expect(Self.importsFoundation("internal import Foundation"))
        #expect(Self.importsFoundation("@preconcurrency import Foundation"))
        #expect(!Self.importsFoundation("import FoundationEssentials"))
        #expect(!Self.importsFoundation("import CueKit"))
        #expect(!Self.importsFoundation("// import Foundation"))
    }
}
