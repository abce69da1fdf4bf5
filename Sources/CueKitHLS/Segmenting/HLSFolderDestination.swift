import CueKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a rendition's segments and media playlist into a folder, all or nothing.
///
/// Everything is written into a hidden working folder first: beside the destination when it does
/// not exist yet (then renamed to it in one step), or inside it (then each file is renamed into
/// place, the playlist last, so that a player reading the folder never sees the new playlist
/// before its segments). Segments of an earlier run with higher numbers are removed. A failure, or
/// ``discard()``, removes the working folder and leaves the destination as it was.
///
/// A class because it owns the working folder, removed when the last reference goes without a
/// ``commit()``.
public final class HLSFolderDestination: HLSSegmentDestination {
    /// The destination folder.
    public let folder: String
    /// The media playlist's file name in it.
    public let playlistName: String
    /// The hidden folder files are written into until ``commit()``; nil once committed or discarded.
    public private(set) var workingFolder: String?
    private let replacesFolder: Bool
    private var playlist: FileDescriptorSink?
    private var segmentPrefix: String?

    /// Makes the working folder. Throws a `WriteError` when the destination's parent is missing
    /// or not writable, or the destination is not a folder.
    public init(folder: String, playlistName: String) throws {
        self.folder = folder
        self.playlistName = playlistName
        var status = stat()
        let exists = stat(folder, &status) == 0
        if exists, (status.st_mode & S_IFMT) != S_IFDIR { throw IOFailure.writing(folder, errno: ENOTDIR) }
        replacesFolder = !exists
        let trimmed = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        let template: String
        if exists {
            template = trimmed + "/.cuekit-segment-XXXXXX"
        } else {
            let slash = trimmed.lastIndex(of: "/")
            let parent = slash.map { $0 == trimmed.startIndex ? "/" : String(trimmed[..<$0]) } ?? "."
            let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
            template = parent + "/." + name + ".cuekit-segment-XXXXXX"
        }
        var bytes = Array(template.utf8CString)
        guard let made = bytes.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw IOFailure.writing(folder, errno: errno)
        }
        workingFolder = String(cString: made)
        if !exists {
            // mkdtemp makes the folder private (0700); the destination is a folder like any other.
            let mask = umask(0)
            umask(mask)
            chmod(made, 0o777 & ~mask)
        }
        let descriptor = open(workingFolder! + "/" + playlistName, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            discard()
            throw IOFailure.writing(folder + "/" + playlistName, errno: code)
        }
        playlist = FileDescriptorSink(descriptor: descriptor, path: folder + "/" + playlistName)
    }

    deinit { discard() }

    public func writeSegment(named name: String, _ bytes: [UInt8]) throws {
        guard let workingFolder else { throw IOFailure.writing(folder + "/" + name, errno: EBADF) }
        let descriptor = open(workingFolder + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw IOFailure.writing(folder + "/" + name, errno: errno) }
        var sink = FileDescriptorSink(descriptor: descriptor, path: folder + "/" + name)
        do {
            try sink.write(bytes)
            try sink.flush()
        } catch {
            close(descriptor)
            throw error
        }
        if close(descriptor) != 0, errno != EINTR { throw IOFailure.writing(folder + "/" + name, errno: errno) }
        if segmentPrefix == nil { segmentPrefix = Self.numberedPrefix(name) }
    }

    public func appendToPlaylist(_ text: String) throws {
        guard playlist != nil else { throw IOFailure.writing(folder + "/" + playlistName, errno: EBADF) }
        try playlist!.write(text)
    }

    /// Moves everything written into the destination, the playlist last, and removes segments of
    /// an earlier run that the new playlist does not list.
    public func commit() throws {
        guard let working = workingFolder, var sink = playlist else { throw IOFailure.writing(folder, errno: EBADF) }
        playlist = nil
        try sink.flush()
        if fsync(sink.descriptor) != 0, errno != EINVAL, errno != EROFS { throw IOFailure.writing(sink.path, errno: errno) }
        close(sink.descriptor)
        if replacesFolder {
            guard rename(working, folder) == 0 else { throw IOFailure.writing(folder, errno: errno) }
            workingFolder = nil
            return
        }
        let names = try Self.names(in: working)
        for name in names where name != playlistName {
            guard rename(working + "/" + name, folder + "/" + name) == 0 else { throw IOFailure.writing(folder + "/" + name, errno: errno) }
        }
        guard rename(working + "/" + playlistName, folder + "/" + playlistName) == 0 else {
            throw IOFailure.writing(folder + "/" + playlistName, errno: errno)
        }
        rmdir(working)
        workingFolder = nil
        if let prefix = segmentPrefix {
            // What an earlier, longer run left: numbered like these segments, but not written now.
            let written = Set(names)
            for name in try Self.names(in: folder) where !written.contains(name) && Self.numberedPrefix(name) == prefix {
                unlink(folder + "/" + name)
            }
        }
    }

    /// Removes the working folder and what it holds; the destination is left as it was.
    public func discard() {
        if let sink = playlist {
            close(sink.descriptor)
            playlist = nil
        }
        guard let working = workingFolder else { return }
        for name in (try? Self.names(in: working)) ?? [] { unlink(working + "/" + name) }
        rmdir(working)
        workingFolder = nil
    }

    /// `subs` for `subs12.vtt`: the name without its number and `.vtt`; nil for other names.
    static func numberedPrefix(_ name: String) -> String? {
        guard name.hasSuffix(".vtt") else { return nil }
        let stem = name.dropLast(4)
        let prefix = stem.reversed().drop(while: \.isASCIIDigit)
        guard prefix.count < stem.count else { return nil }
        return String(prefix.reversed())
    }

    /// The names in a folder, but `.` and `..`.
    static func names(in folder: String) throws -> [String] {
        guard let directory = opendir(folder) else { throw IOFailure.writing(folder, errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

extension Character {
    /// `0` to `9`.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
