import CueKitCast
import NIOCore

/// One TLS connection to the device, with the senders on it that talk to the application.
///
/// What is sent to the connection goes to a queue that one task writes out (see
/// ``CastV2Device``): sending never waits on the socket, so a sender that stops reading holds up
/// nobody else. The queue is bounded in bytes: past the bound, the connection is closed and
/// ``closeReason`` says why.
actor DeviceConnection {
    private let queue: AsyncStream<CastV2Message>.Continuation
    private let channel: any Channel
    private let byteLimit: Int
    private let application: any CastMediaApplication
    private var lastHeard = ContinuousClock.now
    private var queuedBytes = 0
    private var refusedSenders = false
    /// Why the device closed the connection, if it did.
    private(set) var closeReason: String?
    /// Sender ids on this connection and their link to the application.
    private var links: [String: (listener: CastReceiverModel.ListenerID, transportID: String, task: Task<Void, Never>)] = [:]
    /// Senders that have talked to the platform (`receiver-0`).
    private(set) var platformSenders: Set<String> = []

    init(queue: AsyncStream<CastV2Message>.Continuation, channel: any Channel, byteLimit: Int, application: any CastMediaApplication) {
        self.queue = queue
        self.channel = channel
        self.byteLimit = byteLimit
        self.application = application
    }

    var silence: Duration { ContinuousClock.now - lastHeard }

    func heard() { lastHeard = .now }

    /// Answers `CLOSE` to a sender id the device does not admit (it is not recorded anywhere).
    func refuse(_ sender: String, from destination: String) {
        let text = #"{"type":"CLOSE"}"#
        enqueue(CastV2Message(sourceID: destination, destinationID: sender, namespace: CastV2Namespace.connection, payload: .text(text)))
    }

    /// True the first time a sender id is refused on this connection (so that it is logged once).
    func firstRefusal() -> Bool {
        defer { refusedSenders = true }
        return !refusedSenders
    }

    func send(_ object: CastJSONObject, namespace: String, from source: String, to destination: String) {
        if source == "receiver-0" { platformSenders.insert(destination) }
        let text = CastJSONValue.object(object).serialized(.compact)
        enqueue(CastV2Message(sourceID: source, destinationID: destination, namespace: namespace, payload: .text(text)))
    }

    /// Queues a message for the writing task. A message longer than a frame may be is dropped
    /// (the sender would refuse the frame and close); one past the queue's bound closes the
    /// connection.
    func enqueue(_ message: CastV2Message) {
        guard closeReason == nil else { return }
        let length = message.serializedLength
        guard length <= CastV2FrameDecoder.maximumLength else { return }
        guard queuedBytes + length <= byteLimit else {
            close(because: "the sender stopped reading: \(queuedBytes + length) bytes would wait for it, over the \(byteLimit)-byte limit")
            return
        }
        queuedBytes += length
        queue.yield(message)
    }

    /// Closes the connection, recording why (the first reason only).
    func close(because reason: String) {
        guard closeReason == nil else { return }
        closeReason = reason
        queue.finish()
        channel.close(promise: nil)
    }

    /// The writing task wrote `message` out.
    func wrote(_ message: CastV2Message) { queuedBytes -= message.serializedLength }

    /// Connects `sender` to the application (once): what the application sends it goes out on
    /// the media namespace from `transportID`.
    func linkApplication(sender: String, transportID: String) async {
        guard links[sender] == nil else { return }
        let (listener, stream) = await application.connectSender { [weak self] in
            Task { await self?.close(because: "the sender stopped reading: the application's messages to \(sender) were over its bound") }
        }
        let task = Task {
            for await text in stream {
                self.enqueue(
                    CastV2Message(sourceID: transportID, destinationID: sender, namespace: CastV2Namespace.media, payload: .text(text)))
            }
        }
        links[sender] = (listener, transportID, task)
    }

    func unlinkApplication(sender: String) async {
        guard let link = links.removeValue(forKey: sender) else { return }
        link.task.cancel()
        await application.disconnectSender(link.listener)
    }

    /// A sender closed its last virtual connection: it is no longer told anything.
    func forget(_ sender: String) async {
        platformSenders.remove(sender)
        await unlinkApplication(sender: sender)
    }

    func forward(_ text: String, from sender: String) async {
        guard let link = links[sender] else { return }
        await application.receive(text, from: link.listener)
    }

    /// Drops the links (all, or those to one application), telling their senders with `CLOSE`.
    func closeApplicationLinks(transportID: String? = nil) async {
        for (sender, link) in links where transportID == nil || link.transportID == transportID {
            if transportID != nil {
                send(["type": "CLOSE"], namespace: CastV2Namespace.connection, from: link.transportID, to: sender)
            }
            await unlinkApplication(sender: sender)
        }
    }
}
