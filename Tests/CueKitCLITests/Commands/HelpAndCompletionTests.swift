import ArgumentParser
import Foundation
import CueKitCommandSupport
import CueKitTestSupport
import Testing

@testable import CueKitCLI
@testable import CueKitCastCLI

/// Every command's `--help` shows examples, every example is a command line that the executable
/// running it accepts, both executables list the same network commands, and argument-parser's
/// completion scripts come out for each shell.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct HelpAndCompletionTests {
    static let commands: [[String]] = [
        ["convert"], ["segment"], ["validate"], ["inspect"], ["style"], ["cast"], ["cast", "media"], ["cast", "check"], ["generate"],
        // The network commands: their help, through cuekit, is cuekit-cast's, and their examples are
        // command lines cuekit-cast accepts.
        ["cast", "send"], ["cast", "tracks"], ["cast", "restyle"], ["cast", "devices"], ["cast", "play"], ["cast", "emulate"], ["serve"], ["fetch"],
    ]

    /// The example command lines of a help text: the lines after `Examples:` that start with
    /// `cuekit`, cut before any pipe or redirection, split into words (single quotes kept together).
    static func examples(in help: String) -> [[String]] {
        guard let start = help.range(of: "Examples:") else { return [] }
        // A command continued on the next line (` \` at the end) is one command.
        let joined = help[start.upperBound...].replacingOccurrences(of: " \\\n", with: " ")
        return joined.split(separator: "\n").compactMap { line -> [String]? in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("cuekit ") else { return nil }
            var words: [String] = []
            var word = ""
            var quote: Character?
            var previous: Character = " "
            for character in trimmed {
                defer { previous = character }
                let quoted = quote != nil
                if character == "'" || character == "\"", quote == nil || quote == character {
                    quote = quoted ? nil : character
                } else if !quoted && character == "#" && previous == " " {
                    break
                } else if character == " " && !quoted {
                    if !word.isEmpty { words.append(word) }
                    word = ""
                } else if !quoted && (character == "|" || character == ">") {
                    break
                } else {
                    word.append(character)
                }
            }
            if !word.isEmpty && quote == nil { words.append(word) }
            return Array(words.dropFirst())
        }
    }

    /// Printed at 80 columns, no example breaks inside a command: each line of the examples starts
    /// a command (two spaces in), or continues one whose line ends with ` \`.
    @Test(arguments: commands)
    func helpExamplesNeverBreakInsideACommand(_ command: [String]) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        let run = try CommandLineRun.run(CommandLineRun.executable, command + ["--help"], environment: environment)
        let help = run.standardOutput
        let start = try #require(help.range(of: "Examples:\n"), "\(command)")
        let block = help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        var continued = false
        for line in block {
            if line.isEmpty || line.hasPrefix("USAGE") { break }
            #expect(line.count <= 80, "\(command): '\(line)' is wider than 80 columns")
            let indent = line.prefix { $0 == " " }.count
            if continued {
                #expect(indent >= 4, "\(command): '\(line)' continues a command but is not indented under it")
            } else {
                #expect(indent == 2, "\(command): '\(line)' is a piece of a command cut by wrapping")
            }
            continued = line.hasSuffix(" \\")
        }
    }

    @Test(arguments: commands)
    func helpShowsExamplesThatParse(_ command: [String]) throws {
        let run = try CommandLineRun.cuekit(command + ["--help"])
        #expect(run.status == 0)
        let examples = Self.examples(in: run.standardOutput)
        #expect(!examples.isEmpty, "no examples in \(command) --help")
        for example in examples {
            // cuekit accepts any arguments after a network command's name: cuekit-cast must parse them.
            if NetworkCommand.handedOver(example) != nil {
                #expect(throws: Never.self, "\(example)") { _ = try CueKitCastCommand.parseAsRoot(example) }
            } else {
                #expect(throws: Never.self, "\(example)") { _ = try CueKitCommand.parseAsRoot(example) }
            }
        }
    }

    /// The command at `path` below `root`, by command names; nil when there is none.
    static func command(at path: [String], below root: any ParsableCommand.Type) -> (any ParsableCommand.Type)? {
        guard let name = path.first else { return root }
        guard let child = root.configuration.subcommands.first(where: { $0.configuration.commandName == name }) else { return nil }
        return command(at: Array(path.dropFirst()), below: child)
    }

    /// Each network command is in both command trees, at the same place, with the same abstract;
    /// and cuekit-cast has no command that cuekit does not list.
    @Test(arguments: NetworkCommand.all)
    func bothExecutablesListTheNetworkCommand(_ network: NetworkCommand) throws {
        let listed = try #require(Self.command(at: network.path, below: CueKitCommand.self), "cuekit lacks \(network.path)")
        let running = try #require(Self.command(at: network.path, below: CueKitCastCommand.self), "cuekit-cast lacks \(network.path)")
        #expect(listed.configuration.abstract == network.abstract)
        #expect(running.configuration.abstract == network.abstract)
    }

    @Test func cuekitCastRunsOnlyTheNetworkCommands() {
        var leaves: [[String]] = []
        func walk(_ command: any ParsableCommand.Type, _ path: [String]) {
            let subcommands = command.configuration.subcommands
            if subcommands.isEmpty { leaves.append(path) }
            for child in subcommands { walk(child, path + [child.configuration.commandName ?? ""]) }
        }
        walk(CueKitCastCommand.self, [])
        #expect(leaves.sorted { $0.lexicographicallyPrecedes($1) } == NetworkCommand.all.map(\.path).sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(_ shell: String) throws {
        let run = try CommandLineRun.cuekit(["--generate-completion-script", shell])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("cuekit"))
        // The network commands are listed; their options are cuekit-cast's, not in cuekit's script.
        for subcommand in ["convert", "validate", "inspect", "style", "generate", "serve", "emulate", "restyle"] {
            #expect(run.standardOutput.contains(subcommand), "\(shell) completion lacks \(subcommand)")
        }
    }
}
