/// A receiver application as a Cast device runs it: it is handed the media namespace of each
/// sender that joins it, as JSON text, and answers through that sender's stream.
///
/// The protocol is transport-neutral, so that a receiver (`CueKitServer`'s `CastReceiverSession`)
/// can be one without linking the channel that carries the messages: the Cast v2 device of
/// `CueKitCastV2` hands its senders to whatever application it is given.
public protocol CastMediaApplication: Sendable {
    /// A sender joined: what the application sends it arrives on the stream. `whenDropped` is
    /// called if the application gives up on a sender that does not read what it is sent: the
    /// transport then closes the sender's connection.
    func connectSender(whenDropped: (@Sendable () -> Void)?) async -> (CastReceiverModel.ListenerID, AsyncStream<String>)
    /// The sender left.
    func disconnectSender(_ id: CastReceiverModel.ListenerID) async
    /// A media-namespace message from the sender.
    func receive(_ text: String, from sender: CastReceiverModel.ListenerID) async
}
