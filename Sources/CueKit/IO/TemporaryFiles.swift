import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The temporary files that ``AtomicFileSink``s are writing right now, process-wide.
///
/// A program stopped half-way (Ctrl-C, `SIGTERM`) would leave them behind: its signal handling calls
/// ``removeAllForExit()`` before exiting. A file is made and registered in one step under the
/// registry's lock, so none is ever on disk without being registered. Because of the lock, call it
/// from ordinary code (a thread waiting in `sigwait`, a dispatch signal source), not from inside a
/// raw C signal handler.
public enum TemporaryFiles {
    private struct Registry {
        var paths: Set<String> = []
        /// Set by ``removeAllForExit()``: no temporary file may be made any more.
        var closed = false
    }

    private static let live = Mutex(Registry())

    /// The paths of the temporary files that exist now, sorted.
    public static var paths: [String] {
        live.withLock { $0.paths.sorted() }
    }

    /// Removes every temporary file still registered and forgets them; returns how many were removed.
    /// The sinks that owned them then fail on their next write or commit, and never touch their
    /// destinations.
    @discardableResult
    public static func removeAll() -> Int {
        remove(closing: false)
    }

    /// ``removeAll()`` for the temporary files in `folder` alone (and its subfolders): what a
    /// caller that owns a folder, such as a test, removes without touching the process's others.
    @discardableResult
    public static func removeAll(in folder: String) -> Int {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return live.withLock { registry in
            var removed = 0
            for path in registry.paths where path.hasPrefix(prefix) {
                if unlink(path) == 0 { removed += 1 }
                registry.paths.remove(path)
            }
            return removed
        }
    }

    /// ``removeAll()`` for a process about to exit (a signal arrived): afterwards no temporary file
    /// can be made, so that none appears between the removal and the exit.
    @discardableResult
    public static func removeAllForExit() -> Int {
        remove(closing: true)
    }

    private static func remove(closing: Bool) -> Int {
        // The files are removed under the lock: a file is made and registered under it too
        // (``create(_:)``), so none can be made but not yet registered while they go.
        live.withLock { registry in
            if closing { registry.closed = true }
            var removed = 0
            for path in registry.paths where unlink(path) == 0 { removed += 1 }
            registry.paths.removeAll()
            return removed
        }
    }

    /// Makes a temporary file with `make` (which returns its descriptor and path) and registers
    /// it, under the registry's lock, so that no interruption comes between the two. Throws
    /// `interrupted` once ``removeAllForExit()`` has run.
    static func create(_ make: () throws -> (Int32, String), interrupted: @autoclosure () -> any Error) throws -> (Int32, String) {
        try live.withLock { registry throws -> (Int32, String) in
            if registry.closed { throw interrupted() }
            let made = try make()
            registry.paths.insert(made.1)
            return made
        }
    }

    static func unregister(_ path: String) {
        _ = live.withLock { $0.paths.remove(path) }
    }
}

extension TemporaryFiles {
    /// The folder temporary files go in: `TMPDIR`, or `/tmp`.
    public static var folder: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }
}
