/// Starts and ends the session with a receiver, as `GCKSessionManager` does on iOS: connect,
/// then control the media through ``CastSession/remoteMediaClient``.
///
/// ```swift
/// let sessions = SessionManager()
/// try await sessions.connect(to: "ws://127.0.0.1:8000/cast")
/// sessions.currentSession?.remoteMediaClient?.loadMedia(media)
/// await sessions.endSession()
/// ```
///
/// `CueKitCastV2` adds `connect(toDevice:port:)`, which joins a Cast device's Default Media
/// Receiver (launching it first). One session at a time: connecting again ends the current one.
@MainActor
public final class SessionManager {
    /// The session in progress; nil before the first connection and after ``endSession()``.
    public private(set) var currentSession: CastSession?

    /// A manager with no session.
    public init() {}

    /// Connects to a CueKit receiver's sender socket (`ws://HOST:PORT/cast`) and makes it the
    /// current session.
    @discardableResult
    public func connect(to receiverURL: String) async throws -> CastSession {
        try await start(with: RemoteMediaClient.connect(to: receiverURL))
    }

    /// Makes a connected client (over any ``RemoteMediaTransport``) the current session, ending
    /// the one before.
    @discardableResult
    public func start(with client: RemoteMediaClient) async -> CastSession {
        await endSession()
        let session = CastSession(remoteMediaClient: client)
        currentSession = session
        return session
    }

    /// Ends the current session: returns once its connection is closed, the receiver told
    /// (over Cast v2, the virtual connection closed before the TLS session).
    public func endSession() async {
        guard let session = currentSession else { return }
        currentSession = nil
        await session.remoteMediaClient?.disconnect()
    }
}

/// A session with one receiver, as `GCKCastSession` is on iOS.
@MainActor
public final class CastSession {
    /// Controls the receiver's media. Optional as on iOS, where a session may have no media
    /// channel; a CueKit session always has one.
    public let remoteMediaClient: RemoteMediaClient?

    init(remoteMediaClient: RemoteMediaClient) {
        self.remoteMediaClient = remoteMediaClient
    }
}
