/// One request a ``RemoteMediaClient`` made from the main actor (`loadMedia(_:)`,
/// `setActiveTrackIDs(_:)`...), as `GCKRequest` is on iOS: its ``delegate`` is told on the main
/// actor when the receiver answers, and ``completion`` can be awaited.
///
/// Requests are equal only to themselves, so a delegate that keeps several can tell them apart.
@MainActor
public final class CastRequest: Hashable {
    /// The `requestId` the message carries; the receiver's answer carries it back.
    public nonisolated let requestID: Int
    /// Told of the outcome once, on the main actor. Held weakly, as iOS holds it.
    public weak var delegate: (any CastRequestDelegate)?
    /// Why the request failed; nil while pending and after success.
    public private(set) var error: (any Error)?
    /// True once the receiver answered (or the request failed).
    public private(set) var isFinished = false
    private var waiters: [CheckedContinuation<Void, any Error>] = []

    init(requestID: Int) {
        self.requestID = requestID
    }

    /// Returns when the receiver answered the request; throws its `CastRequestError` or the
    /// connection's error when it did not.
    public var completion: Void {
        get async throws {
            if isFinished {
                if let error { throw error }
                return
            }
            try await withCheckedThrowingContinuation { waiters.append($0) }
        }
    }

    /// Records the outcome, tells the delegate and resumes those awaiting ``completion``; only
    /// the first outcome counts.
    func finish(_ failure: (any Error)?) {
        guard !isFinished else { return }
        isFinished = true
        error = failure
        let waiting = waiters
        waiters = []
        if let failure {
            delegate?.request(self, didFailWithError: failure)
            for waiter in waiting { waiter.resume(throwing: failure) }
        } else {
            delegate?.requestDidComplete(self)
            for waiter in waiting { waiter.resume() }
        }
    }

    public nonisolated static func == (left: CastRequest, right: CastRequest) -> Bool {
        left === right
    }

    public nonisolated func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// Told how a ``CastRequest`` ended, on the main actor, as `GCKRequestDelegate` is on iOS. Both
/// methods do nothing unless implemented.
@MainActor
public protocol CastRequestDelegate: AnyObject {
    /// The receiver answered with a status: the request took effect.
    func requestDidComplete(_ request: CastRequest)
    /// The receiver refused the request (a `CastRequestError`), or the connection closed first.
    func request(_ request: CastRequest, didFailWithError error: any Error)
}

extension CastRequestDelegate {
    public func requestDidComplete(_ request: CastRequest) {}
    public func request(_ request: CastRequest, didFailWithError error: any Error) {}
}
