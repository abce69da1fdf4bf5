import CueKitCastSender
import Testing

@testable import CueKitCastSender

/// The sender's `ws://` URLs: host, port and target as the upgrade request needs them; anything
/// else refused before a connection is tried.
@Suite struct WebSocketAddressTests {
    typealias Address = WebSocketConnection.Address

    @Test func readsHostPortAndTarget() throws {
        let plain = try #require(Address("ws://127.0.0.1:8000/cast"))
        #expect(plain == Address(host: "127.0.0.1", port: 8_000, target: "/cast"))
        #expect(plain.hostHeader == "127.0.0.1:8000")
        let bare = try #require(Address("WS://receiver.local"))
        #expect(bare == Address(host: "receiver.local", port: 80, target: "/"))
        #expect(bare.hostHeader == "receiver.local")
        #expect(Address("ws://[::1]:9000/cast?x=1#frag") == Address(host: "::1", port: 9_000, target: "/cast?x=1"))
        #expect(Address("ws://[::1]:9000")?.hostHeader == "[::1]:9000")
        #expect(Address("ws://h?q") == Address(host: "h", port: 80, target: "/?q"))
    }

    @Test(arguments: ["wss://h/cast", "http://h/", "ws://", "ws://h:0/", "ws://h:70000/", "ws://h:x/", "ws://user@h/", "ws://[::1/", "ws://[::1]x/"])
    func refusesWhatIsNoPlainWebSocketURL(_ url: String) {
        #expect(Address(url) == nil, "\(url)")
    }

    @Test func aURLThatIsNotWSFailsWithAClearError() async throws {
        let error = await #expect(throws: RemoteMediaClient.ConnectionError.self) {
            _ = try await RemoteMediaClient.connect(to: "wss://127.0.0.1:1/cast")
        }
        #expect(error?.description.contains("wss:// is not supported") == true)
    }
}

extension WebSocketConnection.Address {
    init(host: String, port: Int, target: String) {
        self.init("ws://x")!
        self.host = host
        self.port = port
        self.target = target
    }
}
