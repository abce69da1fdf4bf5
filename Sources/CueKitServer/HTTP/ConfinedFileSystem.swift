import Foundation
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
        Self.endingWhole(try await files.loadFile(id: id, context: context))
    }

    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        Self.endingWhole(try await files.loadFile(id: id, range: range, context: context))
    }

    /// A file that ended before the length its answer announced: it was truncated while sent.
    struct ShortFile: Error {
        let expected: Int
        let sent: Int
    }

    /// `body`, which fails instead of ending when fewer bytes than its length were written: the
    /// connection is then closed, and the client knows the answer is cut, rather than waiting
    /// for bytes that will never come (RFC 9112 §6.3: an incomplete message).
    static func endingWhole(_ body: ResponseBody) -> ResponseBody {
        guard let length = body.contentLength else { return body }
        return ResponseBody(contentLength: length) { writer in
            try await body.write(LengthCheckingWriter(base: writer, expected: length))
        }
    }

    /// At most `limit` bytes of the regular file at `path` (a confined path): nil when it cannot
    /// be opened or is not a regular file. The size is checked before any byte is read, so a
    /// longer file costs no memory: it is reported as `limit + 1` bytes.
    static func contents(atPath path: String, upTo limit: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        if info.st_size > limit { return Data(count: limit + 1) }
        return try? handle.read(upToCount: limit + 1) ?? Data()
    }

    /// `realpath(3)`: absolute, links resolved; nil when the file does not exist.
    static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Passes a body on, counting its bytes, and refuses to end it short of `expected`.
struct LengthCheckingWriter: ResponseBodyWriter {
    var base: any ResponseBodyWriter
    let expected: Int
    var written = 0

    mutating func write(_ buffer: ByteBuffer) async throws {
        written += buffer.readableBytes
        try await base.write(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        guard written >= expected else { throw ConfinedFileSystem.ShortFile(expected: expected, sent: written) }
        try await base.finish(trailingHeaders)
    }
}
