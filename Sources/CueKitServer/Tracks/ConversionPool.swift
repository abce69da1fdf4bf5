import NIOCore
import NIOPosix
import Synchronization

/// The threads track conversions run on, apart from NIO's shared pool, which serves files: a long
/// conversion (a 1 GB track takes many seconds) occupies one of these threads and no file answer
/// waits for it.
///
/// At most ``threads`` conversions run at once and ``maximumWaiting`` more wait for a thread; a
/// conversion beyond those is refused at once with ``Busy`` (the server answers `503` with
/// `Retry-After`), so a flood of new styles queues no unbounded work.
final class ConversionPool: Sendable {
    /// A conversion refused because every thread and waiting place is taken.
    struct Busy: Error {}

    /// The conversions that run at once.
    let threads: Int
    /// The conversions that may wait for a thread.
    let maximumWaiting: Int
    private let pool: NIOThreadPool
    private let admitted = Mutex(0)

    /// A started pool of `threads` threads (at least one) with `maximumWaiting` waiting places.
    init(threads: Int, maximumWaiting: Int) {
        self.threads = max(1, threads)
        self.maximumWaiting = max(0, maximumWaiting)
        pool = NIOThreadPool(numberOfThreads: self.threads)
        pool.start()
    }

    /// Half the machine's cores, at least one: the other half keeps serving.
    static var defaultThreads: Int { max(1, System.coreCount / 2) }

    /// How many conversions run or wait now.
    var admittedCount: Int { admitted.withLock { $0 } }

    /// Runs `work` on one of the pool's threads; throws ``Busy`` when no place is free.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        let capacity = threads + maximumWaiting
        let entered = admitted.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard entered else { throw Busy() }
        defer { admitted.withLock { $0 -= 1 } }
        return try await pool.runIfActive(work)
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }
}
