import ArgumentParser
import CueKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `cuekit` and `cuekit-cast` run a command line, so that both end the same way: argument
/// parser's usage errors (its status 64) become 2, and a ``CommandFailure`` prints its message and
/// exits with its own status.
package enum CommandLineMain {
    /// The version `--version` prints.
    package static let version = "0.1.0"

    /// Parses the process's arguments as `Root`'s command line, runs the command, and exits.
    package static func run<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        do {
            var command = try Root.parseAsRoot()
            try command.run()
            exit(ExitStatus.success.rawValue)
        } catch let failure as CommandFailure {
            StandardError.write("cuekit: error: \(failure.message)\n")
            exit(failure.status.rawValue)
        } catch let error as WriteError {
            // Output that cannot be written, in any command: one line, exit 2.
            StandardError.write("cuekit: error: \(error.message.escapingControlCharacters)\n")
            exit(ExitStatus.usageOrIOError.rawValue)
        } catch let error as ReadError where error.diagnostic.code == IOFailure.readCode {
            // A file or standard output that cannot be read or written, in any command: one line,
            // exit 2, as convert reports it.
            StandardError.write("cuekit: error: \(error.diagnostic.message.escapingControlCharacters)\n")
            exit(ExitStatus.usageOrIOError.rawValue)
        } catch {
            if Root.exitCode(for: error) == .validationFailure {
                StandardError.write(Root.fullMessage(for: error) + "\n")
                exit(ExitStatus.usageOrIOError.rawValue)
            }
            Root.exit(withError: error)
        }
    }
}
