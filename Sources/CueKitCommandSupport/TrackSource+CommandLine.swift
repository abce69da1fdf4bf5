import CueKit
import CueKitConversion

/// How the commands open and read a ``TrackSource``: the reading flags become its options, and a
/// reading error gets the flag or command that gets past it.
extension TrackSource {
    /// The input at `path` (`-` for standard input), its format forced or told from its content.
    package static func open(_ path: String, format: TrackFormat?, limits: ReadingOptions? = nil) throws -> TrackSource {
        var options = Options()
        if let limits {
            options.webVTTLimits = limits.webVTTLimits
            options.encoding = limits.encoding
            options.maximumSpoolBytes = limits.maxSpoolBytes.bytes
            options.ebuSTL.keepTimeCodeOfProgramme = limits.keepTcp
        }
        return try TrackSource(path: path, format: format, options: options)
    }

    /// ``stream(to:)``, with the reading errors explained for the command line: the flag that
    /// raises a limit, and the command that converts content which is not WebVTT.
    package func streamForCommand(to handler: (TrackEvent) throws -> Void) throws {
        do {
            try stream(to: handler)
        } catch let error as ReadError {
            throw explainedForCommand(error)
        }
    }

    /// A reading error of this source with what gets past it on the command line: the flag that
    /// raises a limit, and the command that converts content which is not WebVTT.
    package func explainedForCommand(_ error: ReadError) -> ReadError {
        guard format == .webVTT else { return error }
        var error = error
        if error.diagnostic.code == .vttNoSignature, let other = contentLooksLike, other != .webVTT {
            let output = path == "-" ? "out.vtt" : Self.shellQuoted(Self.replacingExtension(of: path, with: "fixed.vtt"))
            error.diagnostic.message +=
                "; the content looks like \(other.displayName), which no browser or Cast receiver reads as WebVTT: convert it with 'cuekit convert --from \(other.name) \(Self.shellQuoted(path)) -o \(output)'"
        }
        return ReadingOptions.explained(error)
    }

    /// A path as a POSIX shell reads it back: quoted only when it has to be.
    package static func shellQuoted(_ path: String) -> String {
        let safe = path.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-_./+,:@%".utf8.contains(byte)
        }
        return safe && !path.isEmpty ? path : "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// `dir/name.ext` as `dir/name.newExtension` (`dir/name.newExtension` when there is no extension).
    package static func replacingExtension(of path: String, with newExtension: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + "." + newExtension }
        return String(path[..<dot]) + "." + newExtension
    }
}
