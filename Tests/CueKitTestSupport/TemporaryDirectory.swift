#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh directory under `/tmp` for a test's files, removed with everything in it by
/// ``remove()``.
public struct TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates the directory (`/tmp/cuekit-test-XXXXXX`).
    public init() {
        var template = Array("/tmp/cuekit-test-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "cannot create a temporary directory")
        path = String(cString: created!)
    }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The names in the directory (hidden ones included), sorted.
    public var names: [String] {
        FileTree.files(in: path).map { String($0.dropFirst(path.count + 1)) }.sorted()
    }

    /// Writes a file.
    public func write(_ text: String, to name: String) {
        let descriptor = open(file(name), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(descriptor >= 0, "cannot create \(name)")
        var copy = text
        copy.withUTF8 { buffer in _ = posixWrite(descriptor, buffer.baseAddress, buffer.count) }
        close(descriptor)
    }

    /// The contents of a file, or `nil` when it cannot be read.
    public func read(_ name: String) -> String? {
        guard let bytes = try? TestPaths.bytes(file(name)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes the directory and everything in it, folders included (a browser's profile).
    public func remove() {
        FileTree.removeTree(path)
    }
}

/// `write(2)`, named apart from the `write` methods of the types in this module.
func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
