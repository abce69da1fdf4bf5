import CueKit
import CueKitCast
import CueKitTestSupport
import Foundation
import Testing

@testable import CueKitServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a sender has not read stays within its budget: superseded statuses are dropped, and a
/// sender still over budget is disconnected.
@Suite struct SenderBudgetTests {
    /// A LOAD whose media carries `bytes` bytes of title.
    static func load(titleBytes bytes: Int) -> String {
        let title = String(repeating: "t", count: bytes)
        return """
            {"type":"LOAD","requestId":1,"media":{"contentId":"http://127.0.0.1:1/m.webm","contentType":"video/webm","streamType":"BUFFERED",
            "metadata":{"metadataType":0,"title":"\(title)"},
            "tracks":[{"trackId":1,"type":"TEXT","subtype":"SUBTITLES","trackContentId":"http://127.0.0.1:1/en.vtt","trackContentType":"text/vtt","language":"en"}]},
            "activeTrackIds":[1]}
            """
    }

    static func restyle(_ index: Int) -> String {
        let red = String(index % 256, radix: 16, uppercase: true)
        return ##"{"type":"EDIT_TRACKS_INFO","requestId":"## + "\(index + 2)" + ##","textTrackStyle":{"foregroundColor":"#"##
            + (red.count == 1 ? "0" : "")
            + red + ##"FF00FF"}}"##
    }

    @Test func aSilentSenderIsOwedOnlyTheLatestStatusesWithinItsBudget() async throws {
        let budget = 64 << 10
        let session = CastReceiverSession(senderQueueBytes: budget)
        let (active, activeStream) = await session.connectSender()
        let (silent, silentStream) = await session.connectSender()
        var activeMessages = activeStream.makeAsyncIterator()
        await session.receive(Self.load(titleBytes: 20_000), from: active)
        _ = await activeMessages.next()
        for index in 0..<200 {
            await session.receive(Self.restyle(index), from: active)
            // The active sender reads each answer.
            let answer = try #require(await activeMessages.next())
            #expect(answer.contains("\"requestId\":\(index + 2)"))
            #expect(await session.queuedBytes(for: active) == 0)
            let owed = try #require(await session.queuedBytes(for: silent))
            #expect(owed <= budget)
        }
        #expect(await session.senderCount == 2)
        // What the silent sender reads at last ends with the latest style, media included.
        var silentMessages = silentStream.makeAsyncIterator()
        var last = ""
        while await session.queuedBytes(for: silent) ?? 0 > 0, let text = await silentMessages.next() { last = text }
        #expect(last.contains(##""foregroundColor":"#C7FF00FF""##), "\(last.prefix(300))")
        #expect(last.contains("\"title\""))
    }

    @Test func aSenderThatAsksAndNeverReadsIsDisconnectedOverItsBudget() async throws {
        let session = CastReceiverSession(senderQueueBytes: 16 << 10)
        let dropped = Tally()
        let (asker, stream) = await session.connectSender(whenDropped: { dropped.add() })
        await session.receive(Self.load(titleBytes: 2000), from: asker)
        // Each answer is owed to this sender alone and is kept: never superseded.
        var asked = 0
        while await session.senderCount == 1, asked < 100 {
            asked += 1
            await session.receive(#"{"type":"GET_STATUS","requestId":\#(asked + 1)}"#, from: asker)
        }
        #expect(await session.senderCount == 0)
        #expect(asked < 20)
        #expect(dropped.value == 1)
        var messages = stream.makeAsyncIterator()
        #expect(await messages.next() == nil)
    }

    @Test func aSenderThatReadsIsToldEveryStatusInOrder() async throws {
        let session = CastReceiverSession(senderQueueBytes: 4 << 10)
        let (sender, stream) = await session.connectSender()
        let (other, otherStream) = await session.connectSender()
        var messages = stream.makeAsyncIterator()
        var otherMessages = otherStream.makeAsyncIterator()
        await session.receive(Self.load(titleBytes: 100), from: sender)
        _ = await messages.next()
        _ = await otherMessages.next()
        for index in 0..<50 {
            await session.receive(Self.restyle(index), from: sender)
            #expect(await messages.next()?.contains("\"requestId\":\(index + 2)") == true)
            #expect(await otherMessages.next()?.contains("\"requestId\":0") == true)
        }
        #expect(await session.senderCount == 2)
        _ = other
    }

    @Test(.tags(.network), .skippableByTag) func theServerClosesTheConnectionOfASenderThatAsksAndNeverReads() async throws {
        let folder = ServedFolder()
        defer { folder.remove() }
        try await withServer(folder, configure: { $0.maximumSenderQueueBytes = 64 << 10 }) { client, server in
            let socket = try RawWebSocket(port: try #require(client.port))
            defer { socket.closeConnection() }
            socket.write(RawWebSocket.textFrame(Self.load(titleBytes: 30_000)))
            // Each answer (30 KB) is owed to this sender alone: once the socket's buffers are
            // full, they pile up until the budget is spent.
            var asked = 0
            while await server.session.senderCount > 0, asked < 3000 {
                asked += 1
                socket.write(RawWebSocket.textFrame(#"{"type":"GET_STATUS","requestId":\#(asked + 1)}"#))
                if asked.isMultiple(of: 50) { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(await eventually(within: .seconds(10)) { await server.session.senderCount == 0 })
            // What was sent before the close is read, then the connection ends.
            #expect(socket.readsToTheEnd(within: 10), "the connection is still open after \(asked) requests")
        }
    }
}

/// A WebSocket client on a plain socket with a small receive buffer, that reads only when told:
/// a sender that does not read.
final class RawWebSocket: Sendable {
    struct Failure: Error { let message: String }

    let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var small: Int32 = 4096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(message: "cannot connect: \(errno)") }
        write(Array("GET /cast HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n".utf8))
        write(Array("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8))
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.ends(with: Array("\r\n\r\n".utf8)), recv(descriptor, &byte, 1, 0) == 1 { head.append(byte) }
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            throw Failure(message: "no upgrade: \(String(decoding: head, as: UTF8.self))")
        }
    }

    /// A masked text frame, as a client sends.
    static func textFrame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }

    func write(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Reads until the peer ends the connection (true) or nothing comes for `seconds` (false).
    func readsToTheEnd(within seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    func closeConnection() { _ = close(descriptor) }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
