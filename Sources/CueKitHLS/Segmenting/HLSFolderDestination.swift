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
    /// The file every segment is appended to (``appendSegment(_:toFileNamed:)``), while open.
    private var segmentFile: FileDescriptorSink?
    private var segmentFileName = ""
    /// The name segments share before their number (`subs` for `subs0.vtt`, `subs1.vtt`...), while
    /// they come numbered 0, 1, 2... (as ``HLSSegmenter`` names them); nil otherwise.
    private var segmentPrefix: String?
    private var numberedSegments = 0
    private var segmentsAreNumbered = true

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
        if segmentsAreNumbered {
            if let prefix = segmentPrefix {
                // The name the next numbered segment has, made rather than parsed.
                if name == prefix + String(numberedSegments) + ".vtt" { numberedSegments += 1 } else { segmentsAreNumbered = false }
            } else if let numbered = Self.numbered(name), numbered.number == 0 {
                segmentPrefix = numbered.prefix
                numberedSegments = 1
            } else {
                segmentsAreNumbered = false
            }
        }
    }

    public func appendSegment(_ bytes: [UInt8], toFileNamed name: String) throws {
        guard let workingFolder else { throw IOFailure.writing(folder + "/" + name, errno: EBADF) }
        if segmentFile == nil {
            let descriptor = open(workingFolder + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw IOFailure.writing(folder + "/" + name, errno: errno) }
            segmentFile = FileDescriptorSink(descriptor: descriptor, path: folder + "/" + name)
            segmentFileName = name
            // Numbered segments of an earlier run, one file each, are what this file replaces.
            segmentPrefix = name.hasSuffix(".vtt") ? String(name.dropLast(4)) : nil
            segmentsAreNumbered = segmentPrefix != nil
            numberedSegments = 0
        }
        guard name == segmentFileName else { throw IOFailure.writing(folder + "/" + name, errno: EEXIST) }
        try segmentFile!.write(bytes)
    }

    public func appendToPlaylist(_ bytes: [UInt8]) throws {
        guard playlist != nil else { throw IOFailure.writing(folder + "/" + playlistName, errno: EBADF) }
        try playlist!.write(bytes)
    }

    /// Moves everything written into the destination, the playlist last, and removes segments of
    /// an earlier run that the new playlist does not list.
    public func commit() throws {
        guard let working = workingFolder, var sink = playlist else { throw IOFailure.writing(folder, errno: EBADF) }
        playlist = nil
        if var file = segmentFile {
            segmentFile = nil
            defer { close(file.descriptor) }
            try file.flush()
        }
        try sink.flush()
        if fsync(sink.descriptor) != 0, errno != EINVAL, errno != EROFS { throw IOFailure.writing(sink.path, errno: errno) }
        close(sink.descriptor)
        if replacesFolder {
            guard rename(working, folder) == 0 else { throw IOFailure.writing(folder, errno: errno) }
            workingFolder = nil
            return
        }
        // Entries are renamed as the folder is read, never listed whole (a rendition can have
        // hundreds of thousands); a folder changed while it is read may hide some, so it is read
        // again until only the playlist is left.
        var moved = true
        while moved {
            moved = false
            try Self.forEachName(in: working) { name in
                guard name != playlistName else { return }
                guard rename(working + "/" + name, folder + "/" + name) == 0 else {
                    throw IOFailure.writing(folder + "/" + name, errno: errno)
                }
                moved = true
            }
        }
        guard rename(working + "/" + playlistName, folder + "/" + playlistName) == 0 else {
            throw IOFailure.writing(folder + "/" + playlistName, errno: errno)
        }
        rmdir(working)
        workingFolder = nil
        if segmentsAreNumbered, let prefix = segmentPrefix {
            // What an earlier, longer run left: numbered like these segments, past the last written.
            let count = numberedSegments
            var removed = true
            while removed {
                removed = false
                try Self.forEachName(in: folder) { name in
                    guard let numbered = Self.numbered(name), numbered.prefix == prefix, numbered.number >= count else { return }
                    if unlink(folder + "/" + name) == 0 { removed = true }
                }
            }
        }
    }

    /// Removes the working folder and what it holds; the destination is left as it was.
    public func discard() {
        if let sink = playlist {
            close(sink.descriptor)
            playlist = nil
        }
        if let file = segmentFile {
            close(file.descriptor)
            segmentFile = nil
        }
        guard let working = workingFolder else { return }
        var removed = true
        while removed {
            removed = false
            try? Self.forEachName(in: working) { name in if unlink(working + "/" + name) == 0 { removed = true } }
        }
        rmdir(working)
        workingFolder = nil
    }

    /// `("subs", 12)` for `subs12.vtt`; nil for a name that is not a number and `.vtt` after a prefix.
    static func numbered(_ name: String) -> (prefix: String, number: Int)? {
        guard name.hasSuffix(".vtt") else { return nil }
        let stem = name.dropLast(4)
        let digits = stem.reversed().prefix(while: \.isASCIIDigit)
        guard !digits.isEmpty, digits.count <= 18, let number = Int(String(digits.reversed())) else { return nil }
        return (String(stem.dropLast(digits.count)), number)
    }

    /// Calls `body` with each name in a folder, but `.` and `..`, as the folder is read.
    static func forEachName(in folder: String, _ body: (String) throws -> Void) throws {
        guard let directory = opendir(folder) else { throw IOFailure.writing(folder, errno: errno) }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { try body(name) }
        }
    }
}

extension Character {
    /// `0` to `9`.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
