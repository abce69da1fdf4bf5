import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A client WebSocket on SwiftNIO alone (RFC 6455 over plain TCP): the HTTP upgrade, masked frames
/// out, fragments joined in. A CueKit receiver's sender socket is `ws://`; the sender links no TLS
/// (Cast devices speak Cast v2, which `CueKitCastV2` carries).
enum WebSocketConnection {
    /// A frame channel after a successful upgrade.
    typealias FrameChannel = NIOAsyncChannel<WebSocketFrame, WebSocketFrame>

    /// What a `ws://` URL names.
    struct Address: Sendable, Equatable {
        var host: String
        var port: Int
        /// The path and query, `/` when the URL has none.
        var target: String

        /// Reads `ws://host[:port][/path]`; nil for anything else (`wss://` included).
        init?(_ url: String) {
            guard url.lowercased().hasPrefix("ws://") else { return nil }
            let rest = url.dropFirst(5)
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            var target = String(rest.dropFirst(authority.count).prefix { $0 != "#" })
            if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
            var host = Substring(authority)
            var port = 80
            if host.hasPrefix("[") {
                // An IPv6 literal: [::1]:8000.
                guard let close = host.firstIndex(of: "]") else { return nil }
                let after = host[host.index(after: close)...]
                if after.hasPrefix(":") {
                    guard let number = Int(after.dropFirst()), (1...65_535).contains(number) else { return nil }
                    port = number
                } else if !after.isEmpty {
                    return nil
                }
                host = host[host.index(after: host.startIndex)..<close]
            } else if let colon = host.lastIndex(of: ":") {
                guard let number = Int(host[host.index(after: colon)...]), (1...65_535).contains(number) else { return nil }
                port = number
                host = host[..<colon]
            }
            guard !host.isEmpty, !host.contains("@") else { return nil }
            self.host = String(host)
            self.port = port
            self.target = target
        }

        /// The `Host` header: the port only when it is not 80.
        var hostHeader: String {
            let name = host.contains(":") ? "[\(host)]" : host
            return port == 80 ? name : "\(name):\(port)"
        }
    }

    /// The largest message taken in, in bytes (fragments joined).
    static let maximumMessageSize = 1 << 24
    /// The largest frame taken in, in bytes.
    static let maximumFrameSize = 1 << 20

    private enum Upgrade: Sendable {
        case webSocket(FrameChannel)
        case refused
    }

    /// Connects and upgrades; throws when the server cannot be reached or refuses the upgrade.
    static func open(_ address: Address) async throws -> FrameChannel {
        let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: address.host, port: address.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
                        maxFrameSize: maximumFrameSize,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(
                                    NIOWebSocketFrameAggregator(
                                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 4_096,
                                        maxAccumulatedFrameSize: maximumMessageSize))
                                return Upgrade.webSocket(try FrameChannel(wrappingChannelSynchronously: channel))
                            }
                        })
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: address.hostHeader)
                    let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: address.target, headers: headers)
                    var configuration = NIOUpgradableHTTPClientPipelineConfiguration(
                        upgradeConfiguration: NIOTypedHTTPClientUpgradeConfiguration(
                            upgradeRequestHead: request, upgraders: [upgrader],
                            notUpgradingCompletionHandler: { $0.eventLoop.makeSucceededFuture(.refused) }))
                    configuration.leftOverBytesStrategy = .forwardBytes
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: configuration)
                }
            }
        switch try await upgrade.get() {
        case .webSocket(let channel): return channel
        case .refused: throw RemoteMediaClient.ConnectionError(description: "the server refused the WebSocket upgrade")
        }
    }

    /// A frame as a client sends it: masked (RFC 6455 section 5.3).
    static func frame(_ opcode: WebSocketOpcode, _ data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
    }

    /// A close frame with `code` (1000: normal closure).
    static func closeFrame(code: UInt16 = 1_000) -> WebSocketFrame {
        var data = ByteBuffer()
        data.writeInteger(code)
        return frame(.connectionClose, data)
    }
}
