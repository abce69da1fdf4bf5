import Hummingbird
import Logging
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The served folder as Hummingbird's `FileMiddleware` reads it, with nothing outside it reachable.
///
/// A path is resolved the way the kernel will open it (`realpath`, symbolic links followed) and
/// served only when the result is still inside the folder: `..`, its percent-encoded forms (the
/// middleware decodes them first) and links that point out are all refused as missing. Hidden
/// names (a component starting with `.`, such as `.git`) are not served either.
struct ConfinedFileSystem: FileProvider {
    typealias FileAttributes = LocalFileSystem.FileAttributes
    typealias FileIdentifier = String

    /// The folder, resolved, with a trailing `/`.
    let root: String
    private let files: LocalFileSystem

    /// The folder at `root`; nil when it does not exist or is not a folder.
    init?(root: String, logger: Logger) {
        guard let resolved = Self.resolve(root) else { return nil }
        var isFolder = stat()
        guard stat(resolved, &isFolder) == 0, (isFolder.st_mode & S_IFMT) == S_IFDIR else { return nil }
        self.root = resolved.hasSuffix("/") ? resolved : resolved + "/"
        var quiet = logger
        quiet.logLevel = .warning
        files = LocalFileSystem(rootFolder: self.root, threadPool: .singleton, logger: quiet)
    }

    /// The real path of `path` inside the folder, or nil when it leaves it, is hidden, or does
    /// not exist.
    func confinedPath(_ path: String) -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.contains(where: { $0.hasPrefix(".") || $0.contains("\0") }) else { return nil }
        let joined = root + components.joined(separator: "/")
        guard let resolved = Self.resolve(joined) else { return nil }
        guard resolved + "/" == root || resolved.hasPrefix(root) else { return nil }
        return resolved
    }

    func getFileIdentifier(_ path: String) -> String? {
        confinedPath(path)
    }

    func getAttributes(id: String) async throws -> FileAttributes? {
        try await files.getAttributes(id: id)
    }

    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: id, context: context)
    }

    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: id, range: range, context: context)
    }

    /// `realpath(3)`: absolute, links resolved; nil when the file does not exist.
    static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
