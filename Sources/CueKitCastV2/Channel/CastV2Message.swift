import SwiftProtobuf

/// One message on a Cast v2 channel: from one end of a virtual connection to the other, in a
/// namespace, with a payload that is JSON text in every namespace CueKit speaks.
public struct CastV2Message: Sendable, Hashable {
    /// What a message carries.
    public enum Payload: Sendable, Hashable {
        case text(String)
        case binary([UInt8])
    }

    /// The sender of the message: `sender-0`, `receiver-0`, or an application's transport id.
    public var sourceID: String
    /// Its destination, named the same way.
    public var destinationID: String
    /// Its namespace (``CastV2Namespace``).
    public var namespace: String
    public var payload: Payload

    public init(sourceID: String, destinationID: String, namespace: String, payload: Payload) {
        self.sourceID = sourceID
        self.destinationID = destinationID
        self.namespace = namespace
        self.payload = payload
    }

    /// The text of a text payload; nil for a binary one.
    public var text: String? {
        if case .text(let text) = payload { return text }
        return nil
    }

    /// The length of ``serialized()``, worked out without encoding: every field is written (Cast's
    /// schema marks them required), each tag takes one byte.
    public var serializedLength: Int {
        func varintLength(_ value: Int) -> Int {
            var length = 1
            var rest = value >> 7
            while rest > 0 {
                length += 1
                rest >>= 7
            }
            return length
        }
        func field(_ count: Int) -> Int { 1 + varintLength(count) + count }
        let payloadCount =
            switch payload {
            case .text(let text): text.utf8.count
            case .binary(let bytes): bytes.count
            }
        return 2 + field(sourceID.utf8.count) + field(destinationID.utf8.count) + field(namespace.utf8.count) + 2 + field(payloadCount)
    }

    /// The protobuf encoding (without the frame's length).
    public func serialized() throws -> [UInt8] {
        var message = Extensions_Api_CastChannel_CastMessage()
        message.protocolVersion = .castv210
        message.sourceID = sourceID
        message.destinationID = destinationID
        message.namespace = namespace
        switch payload {
        case .text(let text):
            message.payloadType = .string
            message.payloadUtf8 = text
        case .binary(let bytes):
            message.payloadType = .binary
            message.payloadBinary = .init(bytes)
        }
        return try message.serializedBytes()
    }

    /// Reads a protobuf `CastMessage`: every required field must be there, and the payload its
    /// type names.
    public init(serialized bytes: some Collection<UInt8>) throws(CastV2ProtocolError) {
        let message: Extensions_Api_CastChannel_CastMessage
        do {
            message = try Extensions_Api_CastChannel_CastMessage(serializedBytes: Array(bytes))
        } catch BinaryDecodingError.missingRequiredFields {
            throw .malformed("a CastMessage without its source, destination, namespace or payload type")
        } catch {
            throw .malformed("not a CastMessage: \(error)")
        }
        guard message.hasSourceID, message.hasDestinationID, message.hasNamespace, message.hasPayloadType else {
            throw .malformed("a CastMessage without its source, destination, namespace or payload type")
        }
        sourceID = message.sourceID
        destinationID = message.destinationID
        namespace = message.namespace
        switch message.payloadType {
        case .string:
            guard message.hasPayloadUtf8 else { throw .malformed("a STRING CastMessage without payload_utf8") }
            payload = .text(message.payloadUtf8)
        case .binary:
            guard message.hasPayloadBinary else { throw .malformed("a BINARY CastMessage without payload_binary") }
            payload = .binary(Array(message.payloadBinary))
        }
    }
}

/// The namespaces of the Cast v2 protocol that CueKit speaks.
public enum CastV2Namespace {
    /// Opening and closing virtual connections: `CONNECT`, `CLOSE`.
    public static let connection = "urn:x-cast:com.google.cast.tp.connection"
    /// Keep-alive: `PING`, `PONG`.
    public static let heartbeat = "urn:x-cast:com.google.cast.tp.heartbeat"
    /// The device's platform: `LAUNCH`, `GET_STATUS`, `STOP`, `RECEIVER_STATUS`.
    public static let receiver = "urn:x-cast:com.google.cast.receiver"
    /// Media sessions: `LOAD`, `EDIT_TRACKS_INFO`, `GET_STATUS`, `PLAY`, `PAUSE`, `SEEK`, `MEDIA_STATUS`.
    public static let media = "urn:x-cast:com.google.cast.media"
}

/// What is wrong with what came over a Cast v2 channel; the connection is closed after it.
public enum CastV2ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A frame announced more bytes than a Cast message may have.
    case frameTooLarge(length: Int, limit: Int)
    /// A frame's bytes are not a valid `CastMessage`, or its payload is not what its namespace needs.
    case malformed(String)

    public var description: String {
        switch self {
        case .frameTooLarge(let length, let limit): "a Cast v2 frame of \(length) bytes, over the \(limit)-byte limit"
        case .malformed(let reason): "a malformed Cast v2 message: \(reason)"
        }
    }
}
