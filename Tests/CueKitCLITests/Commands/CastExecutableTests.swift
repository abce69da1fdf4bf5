import CueKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `cuekit` hands its network commands to `cuekit-cast`, found beside it: the command lines are
/// `cuekit`'s own (help and usage errors come from it), the work and the exit status are
/// `cuekit-cast`'s, and `cuekit` itself links no network code.
@Suite(.enabled(if: CommandLineRun.isBuilt && FileManager.default.isExecutableFile(atPath: CommandLineRun.product("cuekit-cast").path), "cuekit and cuekit-cast are not built"))
struct CastExecutableTests {
    /// A command line that reaches `cuekit-cast`: a discovery that nobody answers ends with its
    /// exit status 1 and its message.
    static let discovery = ["cast", "devices", "--mdns-server", "127.0.0.1:9", "--timeout", "0.2"]

    /// A `cuekit` alone in a folder of its own, beside the build products: a hard link to the
    /// built one, not a copy, since a copy is open for writing while it is made, and a test beside
    /// this one that starts a process then may hold it open, which makes running it fail
    /// (`ETXTBSY`).
    struct Alone {
        let folder: String
        var executable: URL { URL(fileURLWithPath: folder + "/cuekit") }

        init() throws {
            var template = Array((CommandLineRun.executable.deletingLastPathComponent().path + "/cuekit-alone-XXXXXX").utf8CString)
            let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            guard let created else { throw CocoaError(.fileWriteUnknown) }
            folder = String(cString: created)
            guard link(CommandLineRun.executable.path, folder + "/cuekit") == 0 else {
                try? FileManager.default.removeItem(atPath: folder)
                throw CocoaError(.fileWriteUnknown)
            }
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    @Test(.tags(.network), .skippableByTag) func aNetworkCommandRunsInCuekitCastWithItsExitStatus() throws {
        let run = try CommandLineRun.cuekit(Self.discovery)
        #expect(run.status == 1, "\(run)")
        #expect(run.standardError.contains("no Cast device answered within 0.2 s"), "\(run)")
    }

    /// Through a symbolic link in another folder, `cuekit-cast` is still found beside the
    /// executable the link points to.
    @Test(.tags(.network), .skippableByTag) func cuekitCastIsFoundBesideTheExecutableALinkPointsTo() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: folder.file("cuekit"), withDestinationPath: CommandLineRun.executable.path)
        let run = try CommandLineRun.run(
            URL(fileURLWithPath: folder.file("cuekit")), Self.discovery, environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 1, "\(run)")
        #expect(run.standardError.contains("no Cast device answered"), "\(run)")
    }

    /// A `cuekit` alone in a folder, with no `cuekit-cast` beside it or on PATH, says what is missing
    /// and how to build it, with exit status 2; the commands that read tracks still work.
    @Test func aMissingCuekitCastIsNamedWithHowToBuildIt() throws {
        let folder = try Alone()
        defer { folder.remove() }
        let alone = folder.executable
        let run = try CommandLineRun.run(alone, ["serve", "media", "--port", "0"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 2, "\(run)")
        #expect(run.standardError.contains("cuekit serve runs in cuekit-cast, which is neither beside cuekit (in \(folder.folder))"), "\(run)")
        #expect(run.standardError.contains("--product cuekit-cast"), "\(run)")
        let validate = try CommandLineRun.run(alone, ["validate", "-"], input: Array("WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n".utf8))
        #expect(validate.status == 0, "\(validate)")
    }

    /// Usage errors of the network commands come from `cuekit`, before anything runs.
    @Test func aWrongNetworkCommandLineIsRefusedByCuekitItself() throws {
        let folder = try Alone()
        defer { folder.remove() }
        let run = try CommandLineRun.run(folder.executable, ["cast", "tracks", "--device", "127.0.0.1"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 2, "\(run)")
        #expect(run.standardError.contains("give --active ID or --off"), "\(run)")
        #expect(!run.standardError.contains("cuekit-cast"), "\(run)")
    }

    /// The point of the split: the `cuekit` binary holds no SwiftNIO, Hummingbird or TLS code
    /// (their module names would be in its symbols), while `cuekit-cast` does.
    @Test func cuekitLinksNoNetworkCode() throws {
        let networkModules = ["NIOPosix", "Hummingbird", "NIOSSL"]
        let cuekit = try Data(contentsOf: CommandLineRun.executable)
        for module in networkModules {
            #expect(cuekit.range(of: Data(module.utf8)) == nil, "cuekit links \(module)")
        }
        let cast = try Data(contentsOf: CommandLineRun.product("cuekit-cast"))
        for module in networkModules {
            #expect(cast.range(of: Data(module.utf8)) != nil, "cuekit-cast does not link \(module)")
        }
    }
}
