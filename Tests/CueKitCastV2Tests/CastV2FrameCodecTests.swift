import CueKitCastV2
import NIOCore
import NIOEmbedded
import Testing

/// Frames: a 4-byte big-endian length and a protobuf CastMessage, both ways; what is too large or
/// malformed is refused.
@Suite struct CastV2FrameCodecTests {
    static func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(CastV2FrameDecoder()))
        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(CastV2FrameEncoder()))
        return channel
    }

    static let message = CastV2Message(
        sourceID: "sender-0", destinationID: "receiver-0", namespace: CastV2Namespace.receiver,
        payload: .text(#"{"type":"GET_STATUS","requestId":1}"#))

    @Test func aMessageComesBackFromItsFrame() throws {
        let channel = try Self.channel()
        try channel.writeOutbound(Self.message)
        var frame = try #require(try channel.readOutbound(as: ByteBuffer.self))
        let length = try #require(frame.getInteger(at: 0, endianness: .big, as: UInt32.self))
        #expect(Int(length) == frame.readableBytes - 4)
        // Fed back a byte at a time, as TCP may deliver it.
        while let byte = frame.readSlice(length: 1) { try channel.writeInbound(byte) }
        #expect(try channel.readInbound(as: CastV2Message.self) == Self.message)
        let binary = CastV2Message(sourceID: "a", destinationID: "b", namespace: "urn:x-cast:test", payload: .binary([0, 1, 255]))
        #expect(try CastV2Message(serialized: binary.serialized()) == binary)
    }

    @Test(arguments: [0, 1, 127, 128, 16_383, 16_384, 70_000])
    func theSerializedLengthIsWorkedOutWithoutEncoding(payloadLength: Int) throws {
        let text = CastV2Message(
            sourceID: "sender-0", destinationID: String(repeating: "d", count: 200), namespace: CastV2Namespace.media,
            payload: .text(String(repeating: "é", count: payloadLength / 2)))
        #expect(text.serializedLength == (try text.serialized()).count)
        let binary = CastV2Message(sourceID: "", destinationID: "b", namespace: "n", payload: .binary([UInt8](repeating: 7, count: payloadLength)))
        #expect(binary.serializedLength == (try binary.serialized()).count)
    }

    @Test func aMessageTooLongForAFrameIsNeverWritten() throws {
        let channel = try Self.channel()
        let long = CastV2Message(sourceID: "a", destinationID: "b", namespace: "n", payload: .text(String(repeating: "x", count: 65_536)))
        #expect(throws: CastV2ProtocolError.self) { try channel.writeOutbound(long) }
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
    }

    @Test func twoFramesInOneReadAreTwoMessages() throws {
        let channel = try Self.channel()
        var bytes = ByteBuffer()
        for _ in 0..<2 {
            let encoded = try Self.message.serialized()
            bytes.writeInteger(UInt32(encoded.count), endianness: .big)
            bytes.writeBytes(encoded)
        }
        try channel.writeInbound(bytes)
        #expect(try channel.readInbound(as: CastV2Message.self) == Self.message)
        #expect(try channel.readInbound(as: CastV2Message.self) == Self.message)
        #expect(try channel.readInbound(as: CastV2Message.self) == nil)
    }

    @Test func aFrameOverTheLimitIsRefusedBeforeItsBytesArrive() throws {
        let channel = try Self.channel()
        var bytes = ByteBuffer()
        bytes.writeInteger(UInt32(CastV2FrameDecoder.maximumLength + 1), endianness: .big)
        #expect(throws: CastV2ProtocolError.frameTooLarge(length: CastV2FrameDecoder.maximumLength + 1, limit: CastV2FrameDecoder.maximumLength)) {
            try channel.writeInbound(bytes)
        }
    }

    @Test(arguments: [
        ([UInt8](repeating: 0xFF, count: 9), "not a CastMessage"),
        // Field 2 (source_id) alone: the other required fields are missing.
        ([0x12, 0x01, 0x61], "without its source"),
    ])
    func malformedBytesAreRefused(bytes: [UInt8], reason: String) throws {
        let channel = try Self.channel()
        var frame = ByteBuffer()
        frame.writeInteger(UInt32(bytes.count), endianness: .big)
        frame.writeBytes(bytes)
        do {
            try channel.writeInbound(frame)
            Issue.record("accepted \(bytes)")
        } catch let error as CastV2ProtocolError {
            guard case .malformed(let text) = error else { throw error }
            #expect(text.contains(reason), "\(text)")
        }
    }
}
