import NIOCore
import NIOPosix

/// Answers multicast DNS queries for `_googlecast._tcp.local` with one device, as a Cast device
/// does: `cuekit cast emulate --announce` makes the emulator findable by `cuekit cast devices`
/// and by other senders' discovery.
///
/// On port 5353 it joins the mDNS group and answers queries from port 5353 to the group; other
/// queries (legacy ones, from ordinary ports) get a unicast answer to their source.
public actor CastDeviceAnnouncer {
    public let device: CastDeviceInfo
    private var channel: NIOAsyncChannel<AddressedEnvelope<ByteBuffer>, AddressedEnvelope<ByteBuffer>>?

    public init(device: CastDeviceInfo) {
        self.device = device
    }

    /// Binds `host:port` (5353 joins the mDNS group); returns the port bound.
    public func start(host: String = "0.0.0.0", port: Int = 5353) async throws -> Int {
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<AddressedEnvelope<ByteBuffer>, AddressedEnvelope<ByteBuffer>>(wrappingChannelSynchronously: channel)
                }
            }
        if port == 5353, let multicast = channel.channel as? MulticastChannel {
            try await multicast.joinGroup(try SocketAddress(ipAddress: "224.0.0.251", port: 5353)).get()
        }
        self.channel = channel
        return channel.channel.localAddress?.port ?? port
    }

    /// Answers until the task is cancelled.
    public func run() async throws {
        guard let channel else { return }
        let answer = records()
        try await withTaskCancellationHandler {
            try await channel.executeThenClose { inbound, outbound in
                for try await envelope in inbound {
                    let bytes = Array(envelope.data.readableBytesView)
                    guard let query = try? DNSMessage(bytes: bytes), !query.isResponse,
                        query.questions.contains(where: { $0.name.lowercased() == CastDeviceDiscovery.service && ($0.type == DNSMessage.pointerType || $0.type == 255) })
                    else { continue }
                    var response = answer
                    response.id = query.id
                    let destination =
                        envelope.remoteAddress.port == 5353 ? (try? SocketAddress(ipAddress: "224.0.0.251", port: 5353)) ?? envelope.remoteAddress : envelope.remoteAddress
                    try? await outbound.write(AddressedEnvelope(remoteAddress: destination, data: ByteBuffer(bytes: response.serialized())))
                }
            }
        } onCancel: {
            channel.channel.close(promise: nil)
        }
    }

    private func records() -> DNSMessage {
        let instance = "\(device.id ?? "cuekit")._googlecast._tcp.local"
        let host = "\(device.id ?? "cuekit").local"
        var message = DNSMessage()
        message.isResponse = true
        var entries = ["fn=\(device.name)"]
        if let model = device.model { entries.append("md=\(model)") }
        if let id = device.id { entries.append("id=\(id)") }
        entries.append("ve=05")
        message.records = [
            .pointer(name: CastDeviceDiscovery.service, target: instance),
            .service(name: instance, port: device.port, target: host),
            .text(name: instance, entries: entries),
            .address(name: host, address: device.host),
        ]
        return message
    }
}
