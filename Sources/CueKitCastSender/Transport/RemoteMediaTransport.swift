/// The connection a ``RemoteMediaClient`` speaks through: Cast media-namespace messages, as JSON
/// text, to and from one receiver.
///
/// A CueKit receiver's WebSocket is one (``RemoteMediaClient/connect(to:)``). A Cast device's
/// Cast v2 channel is another, in `CueKitCastV2`, so that a sender that only talks to CueKit
/// receivers links neither protobuf nor the Cast v2 channel.
public protocol RemoteMediaTransport: Sendable {
    /// The receiver's messages, in order, from now on; asked for once. The stream finishes when
    /// the connection closes.
    func messages() async -> AsyncStream<String>
    /// Why the connection closed; nil while it is open.
    var closeReason: String? { get async }
    /// Sends one message; throws when the connection is gone.
    func send(text: String) async throws
    /// Closes the connection.
    func close() async
}
