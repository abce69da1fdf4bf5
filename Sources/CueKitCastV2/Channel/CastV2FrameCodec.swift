import NIOCore

/// Cuts a Cast v2 byte stream into messages: a 4-byte big-endian length, then that many bytes of
/// protobuf `CastMessage`. A length over ``maximumLength`` or a message that does not decode is an
/// error, which closes the connection (the stream cannot be resynchronised after it).
public struct CastV2FrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = CastV2Message

    /// Cast's own limit on a message: 64 KiB.
    public static let maximumLength = 64 * 1024

    public let maximumLength: Int

    public init(maximumLength: Int = Self.maximumLength) {
        self.maximumLength = maximumLength
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, endianness: .big, as: UInt32.self) else { return .needMoreData }
        guard Int(length) <= maximumLength else {
            throw CastV2ProtocolError.frameTooLarge(length: Int(length), limit: maximumLength)
        }
        guard buffer.readableBytes >= 4 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        let bytes = buffer.readBytes(length: Int(length))!
        let message = try CastV2Message(serialized: bytes)
        context.fireChannelRead(wrapInboundOut(message))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A partial frame at the end is dropped with the connection.
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

/// Writes Cast v2 messages as frames. A message longer than ``maximumLength`` is an error, never
/// a frame: the other end would refuse it and close the connection.
public struct CastV2FrameEncoder: MessageToByteEncoder {
    public typealias OutboundIn = CastV2Message

    public let maximumLength: Int

    public init(maximumLength: Int = CastV2FrameDecoder.maximumLength) {
        self.maximumLength = maximumLength
    }

    public func encode(data: CastV2Message, out: inout ByteBuffer) throws {
        let bytes = try data.serialized()
        guard bytes.count <= maximumLength else { throw CastV2ProtocolError.frameTooLarge(length: bytes.count, limit: maximumLength) }
        out.writeInteger(UInt32(bytes.count), endianness: .big)
        out.writeBytes(bytes)
    }
}
