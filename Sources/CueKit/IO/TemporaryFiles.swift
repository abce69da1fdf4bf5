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
/// ``removeAll()`` before exiting. The registry is guarded by a lock, so call it from ordinary code
/// (a thread waiting in `sigwait`, a dispatch signal source), not from inside a raw C signal handler.
public enum TemporaryFiles {
    private static let live = Mutex<Set<String>>([])

    /// The paths of the temporary files that exist now, sorted.
    public static var paths: [String] {
        live.withLock { $0.sorted() }
    }

    /// Removes every temporary file still registered and forgets them; returns how many were removed.
    /// The sinks that owned them then fail on their next write or commit, and never touch their
    /// destinations.
    @discardableResult
    public static func removeAll() -> Int {
        let paths = live.withLock { paths in
            defer { paths.removeAll() }
            return paths
        }
        var removed = 0
        for path in paths where unlink(path) == 0 { removed += 1 }
        return removed
    }

    static func register(_ path: String) {
        _ = live.withLock { $0.insert(path) }
    }

    static func unregister(_ path: String) {
        _ = live.withLock { $0.remove(path) }
    }
}

extension TemporaryFiles {
    /// The folder temporary files go in: `TMPDIR`, or `/tmp`.
    public static var folder: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }
}
