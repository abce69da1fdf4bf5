#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Directory listing without Foundation.
enum FileTree {
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Removes `path` and, when it is a directory, everything below it, deepest first. A symbolic
    /// link is removed, never followed.
    static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            unlink(path)
            return
        }
        for name in names(in: path) { removeTree(path + "/" + name) }
        rmdir(path)
    }

    /// The names in a directory but `.` and `..`.
    private static func names(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var result: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { result.append(name) }
        }
        return result
    }

    static func files(in directory: String) -> [String] {
        names(in: directory).flatMap { name -> [String] in
            let path = directory + "/" + name
            return isDirectory(path) ? files(in: path) : [path]
        }
    }
}
