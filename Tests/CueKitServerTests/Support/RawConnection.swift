import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A TCP client that sends bytes as they are, for requests no HTTP client would send, and tells
/// whether and when the server closed the connection.
enum RawConnection {
    /// What the server did: its bytes, whether it closed the connection, and when.
    struct Outcome: Sendable {
        var received: [UInt8]
        var closedByServer: Bool
        var elapsed: Duration
        var text: String { String(decoding: received, as: UTF8.self) }
        /// The status line, if one came.
        var statusLine: String { String(text.prefix { $0 != "\r\n" && $0 != "\n" }) }
    }

    /// Opens a connection to 127.0.0.1:`port` that sends nothing and has nothing read; the
    /// caller closes it.
    static func openSilent(port: Int) async throws -> any Channel {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
    }

    /// Connects, sends `bytes` (nothing when empty), and reads until the server closes or `limit`
    /// (counted from the connection) has passed, whichever is first; the time it took is counted
    /// from before connecting. `whenAnswerStarts` runs once, when the first bytes have come;
    /// reading stops early, the client closing, once `enough` holds for what was received.
    static func exchange(
        port: Int, sending bytes: [UInt8], readingFor limit: Duration, whenAnswerStarts: @Sendable () async throws -> Void = {},
        enough: @Sendable ([UInt8]) -> Bool = { _ in false }
    ) async throws -> Outcome {
        // Counted from before the connection is made: the server's timers start once it accepts
        // it, so that a busy machine's late scheduling here cannot make a timeout look early.
        let clock = ContinuousClock()
        let start = clock.now
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let timedOut = Mutex(false)
        let timer = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            timedOut.withLock { $0 = true }
            channel.channel.close(promise: nil)
        }
        defer { timer.cancel() }
        var received: [UInt8] = []
        var closedByClient = false
        do {
            try await channel.executeThenClose { inbound, outbound in
                if !bytes.isEmpty { try await outbound.write(ByteBuffer(bytes: bytes)) }
                for try await buffer in inbound {
                    if received.isEmpty { try await whenAnswerStarts() }
                    received += buffer.readableBytesView
                    if enough(received) {
                        closedByClient = true
                        break
                    }
                }
            }
        } catch let error as ChannelError where error == .ioOnClosedChannel || error == .alreadyClosed {
            // Closed by the timer while writing.
        } catch let error as IOError where error.errnoCode == ECONNRESET || error.errnoCode == EPIPE {
            // The server reset the connection: it closed it.
        }
        let elapsed = clock.now - start
        return Outcome(received: received, closedByServer: !closedByClient && !timedOut.withLock { $0 }, elapsed: elapsed)
    }
}
