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
    /// The version both executables' `--version` prints, and the one `cuekit-cast` demands of the
    /// `cuekit` that starts it (``CastExecutableHandshake``). Raise it with every release.
    package static let version = "0.1.0"

    /// Parses the process's arguments as `Root`'s command line, runs the command, and exits.
    package static func run<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        do {
            var command = try Root.parseAsRoot()
            try command.run()
            terminate(.success)
        } catch {
            exit(after: error, root)
        }
    }

    /// ``run(_:)`` for a root whose commands may be asynchronous: an `AsyncParsableCommand` is
    /// awaited on the concurrency pool, with no thread blocked waiting for it.
    package static func runAwaiting<Root: AsyncParsableCommand>(_ root: Root.Type) async -> Never {
        do {
            var command = try Root.parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            terminate(.success)
        } catch {
            exit(after: error, root)
        }
    }

    /// Reports an error that ended a command of `Root`'s and exits with its status.
    package static func exit<Root: ParsableCommand>(after error: any Error, _ root: Root.Type) -> Never {
        switch error {
        case let failure as CommandFailure:
            StandardError.write(failure.line + "\n")
            terminate(failure.status)
        case let error as WriteError:
            // Output that cannot be written, in any command: one line, exit 2.
            StandardError.write("cuekit: error: \(error.message.escapingControlCharacters)\n")
            terminate(.usageOrIOError)
        case let error as ReadError where error.diagnostic.code == IOFailure.readCode:
            // A file or standard output that cannot be read or written, in any command: one line,
            // exit 2, as convert reports it.
            StandardError.write("cuekit: error: \(error.diagnostic.message.escapingControlCharacters)\n")
            terminate(.usageOrIOError)
        default:
            if Root.exitCode(for: error) == .validationFailure {
                StandardError.write(Root.fullMessage(for: error) + "\n")
                terminate(.usageOrIOError)
            }
            Root.exit(withError: error)
        }
    }

    private static func terminate(_ status: ExitStatus) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status.rawValue)
        #elseif canImport(Darwin)
        Darwin.exit(status.rawValue)
        #endif
    }
}
