import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// How long the server waits on a client, and for a stop.
public struct ConnectionTimeouts: Sendable, Hashable {
    /// A new connection's first request (its head and any body) must arrive within this time.
    public var header: Duration
    /// Between requests, a connection is kept open this long for the next one.
    public var idle: Duration

    /// 10 seconds for the first request, 30 between requests.
    public init(header: Duration = .seconds(10), idle: Duration = .seconds(30)) {
        self.header = header
        self.idle = idle
    }
}

/// Watches one HTTP/1 connection between the request decoder and everything after it, so that no
/// client holds a connection it does not use:
///
/// - a connection whose request does not arrive in time (``ConnectionTimeouts``) is closed: the
///   silent one, the one that sends its head a byte at a time, the kept-alive one left idle;
/// - a request the decoder refuses (conflicting lengths, an oversized head, bad line ends, an
///   HTTP/2 preface) is answered `400 Bad Request` and the connection closed (RFC 9112 §2.2, §6.3);
/// - a WebSocket upgrade from a browser origin that may not read the server is answered
///   `403 Forbidden` before the upgrade is considered;
/// - a server stopping (`ChannelShouldQuiesceEvent`) closes a connection as soon as it has no
///   request in progress.
///
/// It reports to the ``ConnectionTable`` whether the connection waits on its client, and leaves
/// the pipeline once a WebSocket handshake has arrived whole: the upgrade handler then makes a
/// WebSocket of the connection (which pings its peer itself) or closes it.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What the connection is doing, as the handler's events change it.
    struct State {
        /// Requests whose head arrived and whose answer has not ended.
        var requestsOpen = 0
        /// A request's head arrived and its end has not.
        var readingRequest = false
        /// The server is stopping: close once no request is in progress.
        var closeWhenIdle = false
        /// A request was refused: what else arrives is dropped until the connection closes.
        var refused = false

        var isIdle: Bool { requestsOpen == 0 && !readingRequest }

        mutating func headArrived() {
            requestsOpen += 1
            readingRequest = true
        }

        mutating func endArrived() { readingRequest = false }

        /// An answer ended; true when the connection now waits on its client.
        mutating func answerEnded() -> Bool {
            requestsOpen = max(0, requestsOpen - 1)
            return isIdle
        }
    }

    private let timeouts: ConnectionTimeouts
    private let table: ConnectionTable
    private let id: ConnectionTable.ID
    private let origins: AllowedOrigins
    private var state = State()
    private var deadline: Scheduled<Void>?
    private var startedWaiting = false
    /// The request is a WebSocket handshake: once it is whole, the connection is handed over.
    private var upgradeRequested = false
    /// The connection was handed over to the upgrade handler: what passes is no longer HTTP.
    private var handedOver = false

    init(timeouts: ConnectionTimeouts, table: ConnectionTable, id: ConnectionTable.ID, origins: AllowedOrigins) {
        self.timeouts = timeouts
        self.table = table
        self.id = id
        self.origins = origins
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { waitForRequest(context: context, within: timeouts.header) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
    }

    func channelActive(context: ChannelHandlerContext) {
        if !startedWaiting { waitForRequest(context: context, within: timeouts.header) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if handedOver {
            context.fireChannelRead(data)
            return
        }
        if state.refused { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            if let origin = refusedOrigin(of: head) {
                refuse(context: context, status: .forbidden, message: "the origin \(origin) may not open a WebSocket here\n")
                return
            }
            state.headArrived()
            table.busy(id)
            if !head.headers["upgrade"].isEmpty {
                if Self.isWebSocketHandshake(head) {
                    upgradeRequested = true
                } else {
                    // Served as the plain request it also is (RFC 9110 §7.8: a server may ignore
                    // Upgrade), so that it stays guarded.
                    head.headers.remove(name: "upgrade")
                    context.fireChannelRead(wrapInboundOut(.head(head)))
                    return
                }
            }
        case .body:
            break
        case .end:
            state.endArrived()
            cancelDeadline()
            if upgradeRequested {
                // The upgrade handler takes it from here: a WebSocket (which pings its peer), or
                // a refusal that closes the connection. What follows may be WebSocket frames.
                handedOver = true
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if handedOver {
            context.write(data, promise: promise)
            return
        }
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        context.write(data, promise: promise)
        guard state.answerEnded() else { return }
        if state.closeWhenIdle {
            context.flush()
            context.close(promise: nil)
        } else {
            table.waiting(id)
            waitForRequest(context: context, within: timeouts.idle)
        }
    }

    /// Whether `head` is a WebSocket opening handshake that the upgrade handler will take up
    /// (RFC 6455 §4.2.1): `Upgrade: websocket`, `Connection: upgrade`, a key, version 13.
    static func isWebSocketHandshake(_ head: HTTPRequestHead) -> Bool {
        func tokens(_ name: String) -> [String] {
            head.headers[name].flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIISpaces().lowercased() }
        }
        return tokens("upgrade").contains("websocket") && tokens("connection").contains("upgrade")
            && head.headers["sec-websocket-key"].count == 1 && head.headers["sec-websocket-version"] == ["13"]
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, !handedOver else {
            context.fireErrorCaught(error)
            return
        }
        if state.refused { return }
        if state.requestsOpen > 0 {
            // An answer is under way: a 400 cannot be put in the middle of it.
            state.refused = true
            context.close(promise: nil)
        } else {
            refuse(context: context, status: .badRequest, message: "")
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, !handedOver {
            if state.isIdle {
                context.close(promise: nil)
            } else {
                state.closeWhenIdle = true
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The origin of a WebSocket upgrade that the allowed origins exclude; nil for any other
    /// request, and for a client that sends no `Origin` (not a browser page).
    private func refusedOrigin(of head: HTTPRequestHead) -> String? {
        guard Self.isWebSocketHandshake(head), let origin = head.headers["origin"].first else { return nil }
        return origins.admits(origin) ? nil : origin
    }

    /// Answers `status` with `Connection: close`, then closes; nothing more is read.
    private func refuse(context: ChannelHandlerContext, status: HTTPResponseStatus, message: String) {
        state.refused = true
        cancelDeadline()
        var headers = HTTPHeaders()
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Content-Length", value: String(message.utf8.count))
        if !message.isEmpty { headers.add(name: "Content-Type", value: "text/plain; charset=utf-8") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if !message.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: message)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.close(promise: nil)
    }

    /// Closes the connection unless a request has arrived whole within `timeout`.
    private func waitForRequest(context: ChannelHandlerContext, within timeout: Duration) {
        startedWaiting = true
        cancelDeadline()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            channel.close(promise: nil)
        }
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}

/// A child channel whose connections are guarded (``ConnectionGuard``) and listed in a
/// ``ConnectionTable``; the HTTP and WebSocket work is the wrapped channel's.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let table: ConnectionTable
    let timeouts: ConnectionTimeouts
    let origins: AllowedOrigins

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let table = table, timeouts = timeouts, origins = origins
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let id = table.open(channel)
            channel.closeFuture.whenComplete { _ in table.closed(id) }
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(ConnectionGuard(timeouts: timeouts, table: table, id: id, origins: origins), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
