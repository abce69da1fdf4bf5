import Synchronization

/// What the receiver has yet to send one sender, within a budget of bytes.
///
/// A sender that reads slowly, or not at all, must not make the receiver hold every status it
/// is owed: a LOAD of 60 KB restyled 400 times would otherwise queue 24 MB for each silent
/// sender. When a message would take the queue over ``budget``, statuses superseded by a later
/// one are dropped first (a `MEDIA_STATUS` that answers no request of this sender, followed by
/// another that carries the media if the first did: statuses are snapshots). If the queue is
/// still over budget, ``push(_:kind:)`` reports it and the sender is to be disconnected.
///
/// The transport reads the queue through ``stream``, which takes a message only when the
/// transport asks for one, so the queue is exactly what the sender has not read.
final class SenderOutbox: Sendable {
    /// What a message is, for dropping superseded statuses.
    enum Kind: Sendable {
        /// A `MEDIA_STATUS`: the request it answers (0 for none), and whether it carries media.
        case status(requestID: Int, includesMedia: Bool)
        /// Anything else (errors, answers of other kinds): never dropped.
        case other
    }

    private struct Queued {
        var text: String
        var kind: Kind
    }

    private struct State {
        var queue: [Queued] = []
        var head = 0
        var bytes = 0
        var finished = false
        var waiter: CheckedContinuation<String?, Never>?

        mutating func popFirst() -> String? {
            guard head < queue.count else { return nil }
            let text = queue[head].text
            head += 1
            bytes -= text.utf8.count
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return text
        }

        /// Drops the statuses a later one supersedes.
        mutating func dropSupersededStatuses() {
            var laterStatus = false
            var laterMedia = false
            var kept: [Queued] = []
            for item in queue[head...].reversed() {
                if case .status(let requestID, let includesMedia) = item.kind {
                    if laterStatus, requestID == 0, !includesMedia || laterMedia {
                        bytes -= item.text.utf8.count
                        continue
                    }
                    laterStatus = true
                    laterMedia = laterMedia || includesMedia
                }
                kept.append(item)
            }
            queue = kept.reversed()
            head = 0
        }
    }

    /// The most bytes of messages held for the sender.
    let budget: Int
    private let state = Mutex(State())

    /// An empty outbox holding at most `budget` bytes.
    init(budget: Int) {
        self.budget = budget
    }

    /// The bytes of messages not yet taken.
    var queuedBytes: Int { state.withLock { $0.bytes } }

    /// Queues `text`, or hands it to the reader waiting. False when the sender is over budget
    /// even after superseded statuses were dropped: the caller disconnects it (``finish()``).
    func push(_ text: String, kind: Kind) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<String?, Never>?) in
            guard !state.finished else { return (true, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (true, waiter)
            }
            state.queue.append(Queued(text: text, kind: kind))
            state.bytes += text.utf8.count
            if state.bytes > budget { state.dropSupersededStatuses() }
            return (state.bytes <= budget, nil)
        }
        waiter?.resume(returning: text)
        return accepted
    }

    /// Ends the stream: what is queued is dropped.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            state.finished = true
            state.queue = []
            state.head = 0
            state.bytes = 0
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next message, waiting for one; nil once finished or when the reading task is cancelled.
    func next() async -> String? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                let ready: String?? = state.withLock { state in
                    if let first = state.popFirst() { return .some(first) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// The messages, each taken when the reader asks for it.
    var stream: AsyncStream<String> {
        AsyncStream(unfolding: { await self.next() })
    }
}
