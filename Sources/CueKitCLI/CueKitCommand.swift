// The cuekit command: argument parsing and output over the libraries (convert, validate, inspect,
// style, cast, serve, generate); what a command does lives in the libraries.

import ArgumentParser
import CueKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `cuekit`: read, check, convert and style caption tracks.
///
/// Exit status, for every subcommand: 0 success, 1 the input is not valid (or some file of a batch
/// failed), 2 a usage or I/O error.
@main
struct CueKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuekit",
        abstract: "Read, check, convert and style caption and subtitle tracks (WebVTT, TTML, SubRip).",
        version: "0.1.0",
        subcommands: [
            ConvertCommand.self, ValidateCommand.self, InspectCommand.self, StyleCommand.self, CastCommand.self, ServeCommand.self, GenerateCommand.self,
        ]
    )

    /// Runs the command line, mapping failures to CueKit's exit statuses: argument-parser's usage
    /// errors (its status 64) become 2, and a ``CommandFailure`` prints its message and exits with its
    /// own status.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            StandardError.write("cuekit: error: \(failure.message)\n")
            terminate(failure.status.rawValue)
        } catch let error as WriteError {
            // Output that cannot be written, in any command: one line, exit 2.
            StandardError.write("cuekit: error: \(error.message.escapingControlCharacters)\n")
            terminate(ExitStatus.usageOrIOError.rawValue)
        } catch let error as ReadError where error.diagnostic.code == IOFailure.readCode {
            // A file or standard output that cannot be read or written, in any command: one line,
            // exit 2, as convert reports it.
            StandardError.write("cuekit: error: \(error.diagnostic.message.escapingControlCharacters)\n")
            terminate(ExitStatus.usageOrIOError.rawValue)
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardError.write(fullMessage(for: error) + "\n")
                terminate(ExitStatus.usageOrIOError.rawValue)
            }
            exit(withError: error)
        }
    }
}

/// Ends the process with `status` (the C library's `exit`, which `ParsableCommand.exit` hides inside
/// the command type).
private func terminate(_ status: Int32) -> Never {
    exit(status)
}
