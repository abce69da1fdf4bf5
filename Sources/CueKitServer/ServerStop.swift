import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

extension TrackServer {
    /// Runs until the task is cancelled or the process gets SIGINT or SIGTERM, then removes its
    /// cache. `onStart` gets the port bound, once the server accepts connections.
    ///
    /// The first signal stops accepting connections, closes those waiting on their client, and
    /// lets the requests under way finish for at most ``Configuration/shutdownGrace``; then every
    /// connection still open is closed. A second signal, or the task's cancellation, closes them
    /// all at once. Work that still does not end then (a conversion in progress) is left behind
    /// after ``forcedStopWait``: the stop is bounded whatever the clients do.
    public func run(onStart: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        defer { cacheFolder.remove() }
        let connections = ConnectionTable(maximum: configuration.maximumConnections)
        var logger = Logger(label: "cuekit.serve")
        logger.logLevel = .critical
        let group = ServiceGroup(services: [makeApplication(connections: connections, onStart: onStart)], logger: logger)

        let (events, sink) = AsyncStream.makeStream(of: StopEvent.self)
        let service = Task {
            do {
                try await group.run()
                sink.yield(.ended(nil))
            } catch {
                sink.yield(.ended(error))
            }
        }
        let signals = Task {
            for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) { sink.yield(.signal) }
        }
        var timer: Task<Void, Never>?
        defer {
            signals.cancel()
            timer?.cancel()
        }
        /// Sends `event` after `delay`.
        func after(_ delay: Duration, _ event: StopEvent) -> Task<Void, Never> {
            Task {
                guard (try? await Task.sleep(for: delay)) != nil else { return }
                sink.yield(event)
            }
        }

        var stop = StopProgress()
        for await event in events {
            switch stop.next(event) {
            case .finish(let error):
                if let error, !stop.forced { throw error }
                return
            case .stopGracefully:
                await group.triggerGracefulShutdown()
                timer = after(configuration.shutdownGrace, .graceOver)
            case .force:
                connections.closeAll()
                service.cancel()
                timer?.cancel()
                timer = after(Self.forcedStopWait, .abandon)
            case .none:
                break
            }
        }
        // The task was cancelled, which ends the stream: close everything, and wait a little.
        connections.closeAll()
        service.cancel()
        await Self.wait(for: service, atMost: Self.forcedStopWait)
    }

    /// How long a forced stop waits for the server's work to end before it returns anyway.
    static var forcedStopWait: Duration { .seconds(1) }

    /// Waits until `task` ends or `limit` has passed, even in a cancelled task.
    private static func wait(for task: Task<Void, Never>, atMost limit: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let pending = Mutex<CheckedContinuation<Void, Never>?>(continuation)
            let resume: @Sendable () -> Void = { pending.withLock { $0.take() }?.resume() }
            Task {
                await task.value
                resume()
            }
            Task {
                try? await Task.sleep(for: limit)
                resume()
            }
        }
    }
}

/// What happens while a server runs and stops.
enum StopEvent: Sendable {
    /// The server ended, with its error if any.
    case ended((any Error)?)
    /// SIGINT or SIGTERM.
    case signal
    /// The grace period after the first signal is over.
    case graceOver
    /// A forced stop waited long enough.
    case abandon
}

/// A stop's progress: the first signal asks for a graceful stop, a second signal or the end of the
/// grace period forces it, and the server's end (or a forced stop that waited long enough)
/// finishes the run.
struct StopProgress {
    enum Action {
        case stopGracefully
        case force
        case finish((any Error)?)
        case none
    }

    private(set) var signals = 0
    /// The stop was forced: connections were closed under the requests.
    private(set) var forced = false

    mutating func next(_ event: StopEvent) -> Action {
        switch event {
        case .ended(let error):
            return .finish(error)
        case .abandon:
            return .finish(nil)
        case .signal:
            signals += 1
            return signals == 1 ? .stopGracefully : force()
        case .graceOver:
            return force()
        }
    }

    private mutating func force() -> Action {
        if forced { return .none }
        forced = true
        return .force
    }
}
