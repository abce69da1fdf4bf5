import CueKitCast

/// The calls of `GCKRemoteMediaClient` on iOS: synchronous, made from the main actor, each
/// returning a ``CastRequest`` whose delegate hears the answer.
///
/// They are sent in the order they are made, each once the one before it is answered, so that a
/// track switch made right after a load applies to the media that load started. In async code,
/// the `async` calls of the same names return the receiver's status instead.
extension RemoteMediaClient {
    /// Loads media (`LOAD`) with its tracks and text track style; it plays at once.
    @MainActor @discardableResult
    public func loadMedia(_ media: MediaInformation) -> CastRequest {
        issue { client, id in _ = try await client.load(CastLoadRequest(requestID: id, media: media)) }
    }

    /// Loads media with these tracks switched on.
    @MainActor @discardableResult
    public func loadMedia(_ media: MediaInformation, activeTrackIDs: [Int]) -> CastRequest {
        issue { client, id in _ = try await client.load(CastLoadRequest(requestID: id, media: media, activeTrackIDs: activeTrackIDs)) }
    }

    /// Switches on exactly these tracks (`EDIT_TRACKS_INFO`); nil or an empty list switches every
    /// track off.
    @MainActor @discardableResult
    public func setActiveTrackIDs(_ ids: [Int]?) -> CastRequest {
        issue { client, id in _ = try await client.editTracksInfo(CastEditTracksInfoRequest(requestID: id, activeTrackIDs: ids ?? [])) }
    }

    /// Restyles the text tracks of the loaded media (`EDIT_TRACKS_INFO`).
    @MainActor @discardableResult
    public func setTextTrackStyle(_ style: TextTrackStyle) -> CastRequest {
        issue { client, id in _ = try await client.editTracksInfo(CastEditTracksInfoRequest(requestID: id, textTrackStyle: style)) }
    }

    /// Resumes playback (`PLAY`).
    @MainActor @discardableResult
    public func play() -> CastRequest {
        issue { client, id in _ = try await client.play(requestID: id) }
    }

    /// Pauses playback (`PAUSE`).
    @MainActor @discardableResult
    public func pause() -> CastRequest {
        issue { client, id in _ = try await client.pause(requestID: id) }
    }

    /// Moves the playhead to `time` seconds (`SEEK`).
    @MainActor @discardableResult
    public func seek(to time: Double) -> CastRequest {
        issue { client, id in _ = try await client.seek(to: time, requestID: id) }
    }

    /// Asks for the status (`GET_STATUS`); the listeners hear it.
    @MainActor @discardableResult
    public func requestStatus() -> CastRequest {
        issue { client, id in _ = try await client.requestStatus(requestID: id) }
    }

    /// Takes a request id now, and queues `call` to run with it after the calls made before.
    @MainActor private func issue(_ call: @escaping @Sendable (RemoteMediaClient, Int) async throws -> Void) -> CastRequest {
        let request = CastRequest(requestID: makeRequestID())
        enqueue { client in
            do {
                try await call(client, request.requestID)
                await request.finish(nil)
            } catch {
                await request.finish(error)
            }
        }
        return request
    }
}
