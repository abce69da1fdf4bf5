#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sink that replaces a file atomically: readers of the destination see either the old file or
/// the whole new one, never a half-written file.
///
/// Bytes go to a temporary file created beside the destination (same folder, so same file
/// system); ``commit()`` flushes them, `fsync`s the file, and `rename`s it over the destination, the
/// one step POSIX guarantees to be atomic. If anything fails, or the sink is released without
/// ``commit()``, the temporary file is removed and an existing destination is left untouched.
/// Every failure is a ``ReadError`` with code `io-write` naming the destination
/// (`cannot write 'out.vtt': No space left on device`).
///
/// ```swift
/// let sink = try AtomicFileSink(path: "out.vtt")   // fails at once for a missing folder
/// var writer = WebVTTWriter(to: sink)
/// try writer.write(track)
/// try sink.commit()
/// ```
///
/// - A destination that exists and is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) cannot
///   be renamed over; it is opened and written directly, and nothing is atomic about it.
/// - A destination that is a symbolic link to a file replaces the file it points to, so that the
///   link keeps working; an existing file keeps its permission bits.
/// - Temporary files are listed in ``TemporaryFiles`` while they exist, so that a program stopped by
///   a signal can remove them (see ``TemporaryFiles/removeAll()``).
///
/// It is a class because it owns a file: copies of a writer that hold it share one temporary file,
/// and releasing the last reference cleans up.
public final class AtomicFileSink: ByteSink {
    /// The destination, as given.
    public let path: String
    /// The temporary file the bytes go to until ``commit()``; `nil` when writing directly to a
    /// destination that is not a regular file, or once committed or discarded.
    public private(set) var temporaryPath: String?
    /// True once ``commit()`` has succeeded.
    public private(set) var isCommitted = false

    /// Where the temporary file is renamed to (the destination, or the file a symbolic link names).
    private let finalPath: String
    // Unchecked: the sink is not shared across threads, and a dynamic exclusivity check on every
    // write costs as much as the write itself.
    @exclusivity(unchecked) private var output: FileDescriptorSink?

    /// Creates the temporary file beside `path` (or opens `path` itself when it exists and is not a
    /// regular file). Throws at once when the folder is missing, not writable, or `path` is a
    /// folder, so that a caller learns it before doing any work.
    public init(path: String) throws {
        self.path = path
        var status = stat()
        var target = path
        if lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        finalPath = target
        let exists = stat(target, &status) == 0
        if exists, (status.st_mode & S_IFMT) == S_IFDIR {
            throw IOFailure.writing(path, errno: EISDIR)
        }
        if exists, (status.st_mode & S_IFMT) != S_IFREG {
            let descriptor = open(target, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard descriptor >= 0 else { throw IOFailure.writing(path, errno: errno) }
            output = FileDescriptorSink(descriptor: descriptor, path: path)
            return
        }
        if exists, access(target, W_OK) != 0 {
            // A read-only file is not silently replaced, though the folder would allow it.
            throw IOFailure.writing(path, errno: errno)
        }
        let (descriptor, temporary) = try TemporaryFiles.create(
            { try Self.createTemporaryFile(beside: target, reportingAs: path) }, interrupted: IOFailure.writing(path, errno: EINTR))
        if exists, fchmod(descriptor, status.st_mode & 0o7777) != 0 {
            let code = errno
            close(descriptor)
            unlink(temporary)
            TemporaryFiles.unregister(temporary)
            throw IOFailure.writing(path, errno: code)
        }
        temporaryPath = temporary
        output = FileDescriptorSink(descriptor: descriptor, path: path)
    }

    deinit {
        discard()
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard output != nil else { throw IOFailure.writing(path, errno: EBADF) }
        do {
            try output!.write(bytes)
        } catch {
            discard()
            throw error
        }
    }

    /// Takes the bytes of an array (a sink held in a `let` can write too).
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Takes the UTF-8 bytes of a string.
    public func write(_ string: String) throws {
        try write(Array(string.utf8))
    }

    public func flush() throws {
        guard output != nil else { throw IOFailure.writing(path, errno: EBADF) }
        do {
            try output!.flush()
        } catch {
            discard()
            throw error
        }
    }

    /// Writes what is buffered, makes it durable (`fsync`), closes the file and renames it over the
    /// destination. On failure the temporary file is removed and the destination is untouched.
    public func commit() throws {
        guard var sink = output else { throw IOFailure.writing(path, errno: EBADF) }
        do {
            try sink.flush()
        } catch {
            discard()
            throw error
        }
        output = nil
        let descriptor = sink.descriptor
        guard let temporary = temporaryPath else {
            // Written directly to a device or FIFO: nothing to rename.
            let failed = close(descriptor) != 0 && errno != EINTR
            if failed { throw IOFailure.writing(path, errno: errno) }
            isCommitted = true
            return
        }
        if fsync(descriptor) != 0, errno != EINVAL, errno != EROFS {
            let code = errno
            close(descriptor)
            removeTemporary(temporary)
            throw IOFailure.writing(path, errno: code)
        }
        if close(descriptor) != 0, errno != EINTR {
            let code = errno
            removeTemporary(temporary)
            throw IOFailure.writing(path, errno: code)
        }
        if rename(temporary, finalPath) != 0 {
            let code = errno
            removeTemporary(temporary)
            throw IOFailure.writing(path, errno: code)
        }
        temporaryPath = nil
        TemporaryFiles.unregister(temporary)
        isCommitted = true
        Self.syncFolder(of: finalPath)
    }

    /// Abandons the output: closes it and removes the temporary file, leaving the destination as it
    /// was. Safe to call more than once, and called when the sink is released without a commit.
    public func discard() {
        if let sink = output {
            close(sink.descriptor)
            output = nil
        }
        if let temporary = temporaryPath {
            removeTemporary(temporary)
        }
    }

    private func removeTemporary(_ temporary: String) {
        unlink(temporary)
        TemporaryFiles.unregister(temporary)
        temporaryPath = nil
    }

    /// Creates `.<name>.<random>.tmp` in the destination's folder with `O_EXCL`, mode 0666 less the
    /// umask, as a new file would get.
    private static func createTemporaryFile(beside target: String, reportingAs path: String) throws -> (Int32, String) {
        let slash = target.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.utf8.index(after: $0)...]) } ?? target
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for _ in 0..<100 {
            var suffix: [UInt8] = []
            for _ in 0..<8 { suffix.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            let temporary = folder + "." + name + "." + String(decoding: suffix, as: UTF8.self) + ".tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (descriptor, temporary) }
            if errno != EEXIST { throw IOFailure.writing(path, errno: errno) }
        }
        throw IOFailure.writing(path, errno: EEXIST)
    }

    /// Makes the rename durable; failures (some file systems cannot sync a folder) change nothing.
    private static func syncFolder(of target: String) {
        let slash = target.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { $0 == target.utf8.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
