import CueKitCastV2
import Testing

/// The mDNS records discovery reads: written and read back, compressed names followed, broken
/// messages refused, and devices assembled from an answer.
@Suite struct DNSMessageTests {
    static let answer: DNSMessage = {
        var message = DNSMessage()
        message.isResponse = true
        message.records = [
            .pointer(name: "_googlecast._tcp.local", target: "Chromecast-abc._googlecast._tcp.local"),
            .service(name: "Chromecast-abc._googlecast._tcp.local", port: 8009, target: "abc.local"),
            .text(name: "Chromecast-abc._googlecast._tcp.local", entries: ["id=abc", "md=Chromecast", "fn=Living Room", "ve=05"]),
            .address(name: "abc.local", address: "192.168.1.20"),
        ]
        return message
    }()

    @Test func aResponseReadsBackAsWritten() throws {
        let read = try DNSMessage(bytes: Self.answer.serialized())
        #expect(read == Self.answer)
        let query = try DNSMessage(bytes: DNSMessage.query(for: CastDeviceDiscovery.service).serialized())
        #expect(!query.isResponse)
        #expect(query.questions.map(\.name) == ["_googlecast._tcp.local"])
        #expect(query.questions.map(\.type) == [DNSMessage.pointerType])
    }

    @Test func compressedNamesAreFollowed() throws {
        // A response whose PTR target points back into the question's name, as devices compress.
        var bytes: [UInt8] = [0, 0, 0x84, 0, 0, 1, 0, 1, 0, 0, 0, 0]
        let questionName = bytes.count
        for label in ["_googlecast", "_tcp", "local"] {
            bytes.append(UInt8(label.utf8.count))
            bytes += Array(label.utf8)
        }
        bytes += [0, 0, 12, 0, 1]
        // Answer: the owner is a pointer to the question's name; the target is "tv" + that pointer.
        bytes += [0xC0, UInt8(questionName), 0, 12, 0, 1, 0, 0, 0, 120, 0, 5, 2, UInt8(ascii: "t"), UInt8(ascii: "v"), 0xC0, UInt8(questionName)]
        let read = try DNSMessage(bytes: bytes)
        #expect(read.records == [.pointer(name: "_googlecast._tcp.local", target: "tv._googlecast._tcp.local")])
    }

    @Test func brokenMessagesAreRefused() {
        // A pointer to itself.
        let loop: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0xC0, 12, 0, 12, 0, 1, 0, 0, 0, 0, 0, 0]
        #expect(throws: DNSMessage.FormatError.self) { try DNSMessage(bytes: loop) }
        // A record announcing more data than there is.
        var truncated = Self.answer.serialized()
        truncated.removeLast(3)
        #expect(throws: DNSMessage.FormatError.self) { try DNSMessage(bytes: truncated) }
        #expect(throws: DNSMessage.FormatError.self) { try DNSMessage(bytes: [0, 0, 0x84]) }
    }

    @Test func aDeviceIsAssembledFromItsRecords() {
        let devices = CastDeviceDiscovery.devices(in: Self.answer, from: "10.0.0.1")
        #expect(devices == [CastDeviceInfo(name: "Living Room", model: "Chromecast", id: "abc", host: "192.168.1.20", port: 8009)])
        // Without an address record, the answer's source is the address.
        var bare = Self.answer
        bare.records.removeLast()
        #expect(CastDeviceDiscovery.devices(in: bare, from: "10.0.0.1").map(\.host) == ["10.0.0.1"])
    }
}
