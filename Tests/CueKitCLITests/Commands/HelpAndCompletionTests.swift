import ArgumentParser
import CueKitTestSupport
import Testing

@testable import CueKitCLI

/// Every command's `--help` shows examples, every example is a command line `cuekit` accepts, and
/// argument-parser's completion scripts come out for each shell.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built"))
struct HelpAndCompletionTests {
    static let commands: [[String]] = [
        ["convert"], ["validate"], ["inspect"], ["style"], ["cast"], ["cast", "media"], ["cast", "check"], ["generate"],
        // The network commands: run by cuekit-cast, but their help and command lines are cuekit's
        // (serve's second example is wrapped in its help, so it is not among them).
        ["cast", "send"], ["cast", "tracks"], ["cast", "restyle"], ["cast", "devices"],
    ]

    /// The example command lines of a help text: the lines after `Examples:` that start with
    /// `cuekit`, cut before any pipe or redirection, split into words (single quotes kept together).
    static func examples(in help: String) -> [[String]] {
        guard let start = help.range(of: "Examples:") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line -> [String]? in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("cuekit ") else { return nil }
            var words: [String] = []
            var word = ""
            var quoted = false
            for character in trimmed {
                if character == "'" {
                    quoted.toggle()
                } else if character == " " && !quoted {
                    if !word.isEmpty { words.append(word) }
                    word = ""
                } else if !quoted && (character == "|" || character == ">") {
                    break
                } else {
                    word.append(character)
                }
            }
            if !word.isEmpty && !quoted { words.append(word) }
            return Array(words.dropFirst())
        }
    }

    @Test(arguments: commands)
    func helpShowsExamplesThatParse(_ command: [String]) throws {
        let run = try CommandLineRun.cuekit(command + ["--help"])
        #expect(run.status == 0)
        let examples = Self.examples(in: run.standardOutput)
        #expect(!examples.isEmpty, "no examples in \(command) --help")
        for example in examples {
            #expect(throws: Never.self, "\(example)") { _ = try CueKitCommand.parseAsRoot(example) }
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(_ shell: String) throws {
        let run = try CommandLineRun.cuekit(["--generate-completion-script", shell])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("cuekit"))
        for subcommand in ["convert", "validate", "inspect", "style", "generate", "serve", "emulate", "mdns-server"] {
            #expect(run.standardOutput.contains(subcommand), "\(shell) completion lacks \(subcommand)")
        }
    }
}
