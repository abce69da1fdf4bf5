import CueKit
import CueKitCommandSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An input given as an address (`cuekit convert URL --fetch`, `cuekit validate URL --fetch`): the
/// remote playlist is downloaded by `cuekit fetch` (in `cuekit-cast`, which links the network
/// stack) into a temporary folder, read from there, its diagnostics naming the address, and the
/// folder removed, on Ctrl-C too (``InterruptCleanup``).
enum RemoteInput {
    /// Calls `body` with the local playlist of `input` fetched, when `input` is an address and
    /// `fetches` (else with `input` itself, and nil for the fetched folder); the folder is removed
    /// after. A remote input without `fetches` is refused with the advice to add `--fetch`.
    static func withLocalCopy<Result>(of input: String, fetches: Bool, _ body: (_ path: String, _ remote: Bool) throws -> Result) throws -> Result {
        guard isRemote(input) else { return try body(input, false) }
        guard fetches else {
            throw CommandFailure("\(input) is remote: add --fetch to have cuekit fetch download it first, or download the rendition yourself")
        }
        let folder = try temporaryFolder()
        InterruptCleanup.folder.withLock { $0 = folder }
        defer {
            removeTree(folder)
            InterruptCleanup.folder.withLock { $0 = nil }
        }
        return try body(try fetched(input, into: folder + "/rendition"), true)
    }

    /// True for an `http://` or `https://` input.
    static func isRemote(_ input: String) -> Bool {
        let lowered = input.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// A new private folder for a fetch, in the temporary files' folder.
    static func temporaryFolder() throws -> String {
        var template = Array((TemporaryFiles.folder + "/cuekit-fetch-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CommandFailure("cannot make a temporary folder in \(TemporaryFiles.folder): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// Fetches the playlist at `url` into `folder` with `cuekit fetch`; returns the local
    /// playlist's path.
    static func fetched(_ url: String, into folder: String) throws -> String {
        let printed = try CastExecutable.output(of: .fetch, arguments: [url, "--output", folder, "--quiet"])
        let path = printed.split(separator: "\n").last.map(String.init) ?? ""
        guard path.hasPrefix(folder + "/") else { throw CommandFailure("cuekit fetch gave no playlist for \(url)") }
        return path
    }

    /// Removes `path` and everything under it (a fetched rendition: folders and files).
    static func removeTree(_ path: String) {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
                }
                guard name != "." && name != ".." else { continue }
                let child = path + "/" + name
                var status = stat()
                if lstat(child, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { removeTree(child) } else { unlink(child) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}
