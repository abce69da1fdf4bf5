import CueKitCommandSupport
import CueKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `cuekit` hands its network commands to `cuekit-cast`, found beside it, with the arguments after
/// the command's name unread: the command lines, help, usage errors, work and exit status are
/// `cuekit-cast`'s; the two refuse to run as a mismatched pair; and `cuekit` itself links no
/// network code.
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

        /// Puts beside this `cuekit` a `cuekit-cast` that prints, one a line, the arguments it
        /// was given and the version `cuekit` announced, and exits 7.
        func addArgumentRecorder() throws {
            let path = folder + "/cuekit-cast"
            let script = """
                #!/bin/sh
                for argument in "$@"; do printf '[%s]\\n' "$argument"; done
                printf 'version %s\\n' "$\(CastExecutableHandshake.callerVersionVariable)"
                exit 7

                """
            try script.write(toFile: path, atomically: false, encoding: .utf8)
            guard chmod(path, 0o755) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
    }

    /// The tests' environment with `extra` set.
    static func environment(_ extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(extra) { $1 }
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

    /// Usage errors of the network commands come from `cuekit-cast`, which alone declares their
    /// options; `cuekit` parses nothing after the command's name.
    @Test func aWrongNetworkCommandLineIsRefusedByCuekitCast() throws {
        let run = try CommandLineRun.cuekit(["cast", "tracks", "--device", "127.0.0.1"])
        #expect(run.status == 2, "\(run)")
        #expect(run.standardError.contains("give --active ID or --off"), "\(run)")
        let unknown = try CommandLineRun.cuekit(["serve", "--no-such-option"])
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.standardError.contains("Unknown option '--no-such-option'"), "\(unknown)")
        #expect(unknown.standardError.contains("Usage: cuekit serve"), "\(unknown)")
    }

    /// Whatever follows the command's name reaches `cuekit-cast` as given: options `cuekit` has
    /// never heard of, `--opt=value`, bundled short flags, `--`, `--help` and `--version` after
    /// other words, empty and spaced arguments; and `cuekit-cast`'s exit status is `cuekit`'s.
    @Test func theArgumentsAfterTheCommandNameAreHandedOnUntouched() throws {
        let folder = try Alone()
        defer { folder.remove() }
        try folder.addArgumentRecorder()
        let arguments = ["--port=8080", "-qv", "", "two words", "--", "--help", "--version", "héllo", "-"]
        let serve = try CommandLineRun.run(folder.executable, ["serve"] + arguments, environment: ["PATH": "/usr/bin:/bin"])
        #expect(serve.status == 7, "\(serve)")
        let expected = (["serve"] + arguments).map { "[\($0)]\n" }.joined() + "version \(CommandLineMain.version)\n"
        #expect(serve.standardOutput == expected, "\(serve)")
        let emulate = try CommandLineRun.run(folder.executable, ["cast", "emulate", "--anything", "at=all"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(emulate.standardOutput == "[cast]\n[emulate]\n[--anything]\n[at=all]\nversion \(CommandLineMain.version)\n", "\(emulate)")
        // cuekit's own commands stay cuekit's.
        let media = try CommandLineRun.run(folder.executable, ["cast", "media", "--content-id", "https://cdn.example.com/a.mp4", "--media-only", "--compact"])
        #expect(media.status == 0 && media.standardOutput.contains("cdn.example.com"), "\(media)")
    }

    /// The real `cuekit-cast` parses what it is handed: `--option=value` forms included.
    @Test func cuekitCastParsesTheHandedOverCommandLine() throws {
        let run = try CommandLineRun.cuekit(["cast", "devices", "--mdns-server=127.0.0.1:9", "--timeout=0.2"])
        #expect(run.status == 1, "\(run)")
        #expect(run.standardError.contains("no Cast device answered within 0.2 s"), "\(run)")
    }

    /// A network command's help is `cuekit-cast`'s, with the options only it declares; `cuekit`'s
    /// own help lists the network commands with their abstracts.
    @Test(arguments: [["serve", "--help"], ["help", "serve"], ["serve", "-h"]])
    func helpOfANetworkCommandComesFromCuekitCast(_ arguments: [String]) throws {
        let run = try CommandLineRun.cuekit(arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.contains("USAGE: cuekit serve"), "\(run)")
        #expect(run.standardOutput.contains("--max-connections <count>"), "\(run)")
        #expect(run.standardOutput.contains("cuekit serve media/ --host 0.0.0.0"), "\(run)")
    }

    /// True when a line of `help` lists `command`: its name, then the start of its abstract.
    static func lists(_ help: String, _ command: NetworkCommand) -> Bool {
        help.split(separator: "\n").contains { line in
            let listed = line.drop { $0 == " " }
            guard listed.hasPrefix(command.name + " ") else { return false }
            return listed.dropFirst(command.name.count).drop { $0 == " " }.hasPrefix(command.abstract.prefix(30))
        }
    }

    @Test func cuekitHelpListsTheNetworkCommands() throws {
        let root = try CommandLineRun.cuekit(["--help"])
        #expect(root.status == 0, "\(root)")
        #expect(Self.lists(root.standardOutput, .serve), "\(root)")
        let cast = try CommandLineRun.cuekit(["cast", "--help"])
        #expect(cast.status == 0, "\(cast)")
        for command in NetworkCommand.all where command.path.first == "cast" {
            #expect(Self.lists(cast.standardOutput, command), "\(cast)")
        }
        let send = try CommandLineRun.cuekit(["cast", "send", "--help"])
        #expect(send.standardOutput.contains("--timeout <seconds>"), "\(send)")
    }

    /// A `cuekit-cast` of another version than the `cuekit` that starts it refuses to run, naming
    /// both versions and both paths (the test claims another version through the variable only
    /// tests use).
    @Test func aMismatchedPairIsRefused() throws {
        let claimed = "0.0.0-other"
        let run = try CommandLineRun.run(
            CommandLineRun.executable, Self.discovery, environment: Self.environment([CastExecutableHandshake.claimedVersionVariable: claimed]))
        #expect(run.status == 2, "\(run)")
        let cast = CommandLineRun.product("cuekit-cast").standardizedFileURL.resolvingSymlinksInPath().path
        let cuekit = CommandLineRun.executable.standardizedFileURL.resolvingSymlinksInPath().path
        #expect(
            run.standardError.contains(
                "cuekit: error: cuekit \(claimed) (\(cuekit)) and cuekit-cast \(CommandLineMain.version) (\(cast)) are different versions"),
            "\(run)")
        #expect(!run.standardError.contains("no Cast device answered"), "\(run)")
        // Help is refused too: it would describe command lines cuekit does not list.
        let help = try CommandLineRun.run(
            CommandLineRun.executable, ["serve", "--help"], environment: Self.environment([CastExecutableHandshake.claimedVersionVariable: claimed]))
        #expect(help.status == 2 && help.standardOutput.isEmpty, "\(help)")
    }

    /// `cuekit-cast` run by hand checks nothing; run with a caller's version that is its own, it
    /// runs; with another, it refuses.
    @Test func cuekitCastChecksTheVersionItIsGiven() throws {
        let cast = CommandLineRun.product("cuekit-cast")
        let alone = try CommandLineRun.run(cast, Self.discovery)
        #expect(alone.status == 1 && alone.standardError.contains("no Cast device answered"), "\(alone)")
        let same = try CommandLineRun.run(cast, Self.discovery, environment: Self.environment([CastExecutableHandshake.callerVersionVariable: CommandLineMain.version]))
        #expect(same.status == 1 && same.standardError.contains("no Cast device answered"), "\(same)")
        let other = try CommandLineRun.run(
            cast, Self.discovery,
            environment: Self.environment([CastExecutableHandshake.callerVersionVariable: "9.9.9", CastExecutableHandshake.callerPathVariable: "/opt/old/cuekit"]))
        #expect(other.status == 2, "\(other)")
        #expect(other.standardError.contains("cuekit 9.9.9 (/opt/old/cuekit) and cuekit-cast \(CommandLineMain.version)"), "\(other)")
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
