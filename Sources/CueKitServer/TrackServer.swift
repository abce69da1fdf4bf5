import CueKit
import CueKitCast
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// `cuekit serve`: a folder of media and tracks over HTTP, as a Google Cast receiver needs it, and
/// a receiver that senders drive.
///
/// | Path | What |
/// | --- | --- |
/// | `/NAME` | a file of the folder: ranges, `HEAD`, `ETag`/`Last-Modified` and conditional requests, gzip for text |
/// | `/tracks/NAME?as=vtt&style=S` | NAME (any track CueKit reads) as WebVTT with a Cast style baked in |
/// | `/hls/NAME/subs.m3u8?duration=D&mpegts=T&align=V&style=S` | NAME as an HLS subtitle rendition: its media playlist, and its segments beside it |
/// | `/media.json` | the folder's media, tracks (by their `/tracks/` URL) and styles (``MediaListing``) |
/// | `/receiver` | the receiver page: a `<video crossorigin>` with `<track>`s, drawn as the senders say |
/// | `/sender` | a control page: load, switch tracks, edit the style |
/// | `/cast` | the senders' WebSocket: Cast's media namespace as JSON |
/// | `/receiver/socket` | the receiver pages' WebSocket: the state to draw |
///
/// Every answer carries the CORS a Cast receiver needs (``AllowedOrigins``); a WebSocket is opened
/// only for a page those origins admit. Nothing outside the folder is reachable, and no client
/// holds a connection it does not use (``ConnectionTimeouts``). The server binds 127.0.0.1 unless
/// told otherwise: a real Cast device needs the LAN address.
public struct TrackServer: Sendable {
    /// How the server runs.
    public struct Configuration: Sendable {
        /// The folder served.
        public var folder: String
        /// The address bound; 127.0.0.1 by default.
        public var host = "127.0.0.1"
        /// The port; 0 takes any free one (see ``TrackServer/run(onStart:)``).
        public var port = 8000
        /// Which origins may read the files (`*` by default).
        public var allowedOrigins = AllowedOrigins.any
        /// The most connections open at once. When all are taken, a new connection replaces the
        /// one that has waited longest for its client's request; when none waits, it queues.
        public var maximumConnections = 1024
        /// How long a connection may wait for its client's request before it is closed.
        public var timeouts = ConnectionTimeouts()
        /// How long a stop lets the requests under way finish before it closes their connections.
        public var shutdownGrace = Duration.seconds(5)
        /// The longest WebSocket message read, in bytes (a Cast channel carries 64 KiB).
        public var maximumMessageBytes = CastMediaChannel.maximumRequestLength
        /// The viewer's language: a load that names no active tracks switches on the first
        /// subtitle or caption track in it.
        public var preferredLanguage: String?
        /// Where each request is logged.
        public var accessLog = AccessLog.none
        /// Conversions on request: threads, waiting requests, the cache folder's budget.
        public var conversions = ConversionLimits()
        /// Compressed bodies: what is kept, and how many are compressed at once.
        public var compression = CompressionLimits()
        /// The bytes of messages a sender may be owed and not read before it is disconnected.
        public var maximumSenderQueueBytes = CastReceiverSession.defaultSenderQueueBytes

        /// Serves `folder` with the defaults.
        public init(folder: String) {
            self.folder = folder
        }
    }

    /// What went wrong before the server could start.
    public struct StartError: Error, CustomStringConvertible {
        /// One line saying what.
        public let description: String
    }

    /// The configuration.
    public let configuration: Configuration
    /// The receiver the senders drive.
    public let session: CastReceiverSession
    let files: ConfinedFileSystem
    let conversions: TrackConversionCache
    let compressedBodies: GzipCache
    let cacheFolder: CacheFolder

    /// A server for `configuration`; throws when the folder is not one.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        var logger = Logger(label: "cuekit.serve")
        logger.logLevel = .warning
        guard let files = ConfinedFileSystem(root: configuration.folder, logger: logger) else {
            throw StartError(description: "\(configuration.folder) is not a folder that can be served")
        }
        self.files = files
        do {
            cacheFolder = try CacheFolder()
        } catch {
            throw StartError(description: "the folder for converted tracks cannot be made: \(error.localizedDescription)")
        }
        conversions = TrackConversionCache(files: files, cacheFolder: cacheFolder.path, limits: configuration.conversions)
        compressedBodies = GzipCache(limits: configuration.compression)
        let preflight = LoadPreflight(files: files)
        session = CastReceiverSession(
            preferredLanguage: configuration.preferredLanguage, senderQueueBytes: configuration.maximumSenderQueueBytes
        ) { preflight.problem(with: $0) }
    }

    /// The Hummingbird application behind ``run(onStart:)``, its connections listed in `connections`.
    func makeApplication(
        connections: ConnectionTable? = nil, onStart: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        // Hummingbird's own log reports, at error level, the connections cut at shutdown; what a
        // person needs is the access log and the command's messages.
        var logger = Logger(label: "cuekit.serve")
        logger.logLevel = .critical
        let router = makeRouter(logger: logger)
        let connections = connections ?? ConnectionTable(maximum: configuration.maximumConnections)
        let webSocketResponder = router.buildResponder()
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(
            ws: .init(maxFrameSize: configuration.maximumMessageBytes, autoPing: .enabled(timePeriod: .seconds(30))))
        let (timeouts, origins) = (configuration.timeouts, configuration.allowedOrigins)
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                let upgrading = HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: channel)
                return GuardedChildChannel(inner: upgrading, table: connections, timeouts: timeouts, origins: origins)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "CueKit",
                availableConnectionsDelegate: ConnectionAdmission(table: connections)),
            onServerRunning: { channel in await onStart(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    typealias Context = ServerContext

    func makeRouter(logger: Logger) -> Router<Context> {
        let router = Router(context: Context.self)
        router.add(middleware: AccessLogMiddleware(log: configuration.accessLog))
        router.add(middleware: CastCORSMiddleware(origins: configuration.allowedOrigins))
        router.add(middleware: GzipMiddleware(cache: compressedBodies, files: files))
        router.add(middleware: ByteRangeRepair())
        router.add(middleware: MediaListingMiddleware(listing: MediaListing(files: files)))
        router.add(middleware: FileMiddleware(fileProvider: files).withAdditionalMediaTypes(forFileExtensions: ServedMediaTypes.byExtension))

        let page = { @Sendable (html: String) -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: html)))
        }
        router.get("/receiver") { _, _ in page(ReceiverPage.html) }
        router.on("/receiver", method: .head) { _, _ in page(ReceiverPage.html) }
        router.get("/sender") { _, _ in page(SenderPage.html) }
        router.on("/sender", method: .head) { _, _ in page(SenderPage.html) }

        addConversionRoutes(to: router, logger: logger)

        let session = self.session
        let maximumMessageBytes = configuration.maximumMessageBytes
        // The sender is registered before the upgrade is answered: once its socket is open, it is
        // told of every change, even one another sender makes before this handler runs.
        router.ws("/cast") { _, context in
            // A sender that does not read is dropped by the session; its connection is closed.
            let channel = context.channel
            context.senderRegistration.register(await session.connectSender { channel.close(promise: nil) }, in: session)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let (id, messages) = context.requestContext.senderRegistration.take() else { return }
            do {
                try await Self.exchange(inbound, outbound, sending: messages, maximumMessageBytes: maximumMessageBytes) { text in
                    await session.receive(text, from: id)
                }
            } catch {
                await session.disconnectSender(id)
                throw error
            }
            await session.disconnectSender(id)
        }
        router.ws("/receiver/socket") { inbound, outbound, _ in
            let (id, states) = await session.connectDisplay()
            do {
                try await Self.exchange(inbound, outbound, sending: states, maximumMessageBytes: maximumMessageBytes) { text in
                    await session.displayReport(text)
                }
            } catch {
                await session.disconnectDisplay(id)
                throw error
            }
            await session.disconnectDisplay(id)
        }
        return router
    }
}

extension TrackServer {
    /// One WebSocket's traffic: what `sending` yields is written to the peer, and each message the
    /// peer sends (text, or binary read as UTF-8) is handed to `receive`, until the peer closes.
    static func exchange(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, sending: AsyncStream<String>, maximumMessageBytes: Int,
        receive: @escaping @Sendable (String) async -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in sending { try await outbound.write(.text(text)) }
            }
            defer { group.cancelAll() }
            for try await message in inbound.messages(maxSize: maximumMessageBytes) {
                switch message {
                case .text(let text): await receive(text)
                case .binary(let buffer): await receive(String(buffer: buffer))
                }
            }
        }
    }
}

/// The request context of every route: WebSocket upgrades, and the client's address for the log.
struct ServerContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<ServerContext>
    let remoteAddress: SocketAddress?
    /// The connection, to close that of a sender that does not read.
    let channel: any Channel
    /// The sender a `/cast` upgrade registered, handed to its WebSocket handler.
    let senderRegistration = SenderRegistration()

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}

/// A sender registered with the receiver session while its upgrade is answered, until its
/// WebSocket handler takes it. One whose upgrade never completes is disconnected when the request
/// context goes away.
final class SenderRegistration: Sendable {
    private struct Registered: Sendable {
        var id: CastReceiverModel.ListenerID
        var messages: AsyncStream<String>
        var session: CastReceiverSession
    }

    private let registered = Mutex<Registered?>(nil)

    func register(_ sender: (CastReceiverModel.ListenerID, AsyncStream<String>), in session: CastReceiverSession) {
        registered.withLock { $0 = Registered(id: sender.0, messages: sender.1, session: session) }
    }

    /// The registered sender, once.
    func take() -> (CastReceiverModel.ListenerID, AsyncStream<String>)? {
        registered.withLock { registered in
            defer { registered = nil }
            return registered.map { ($0.id, $0.messages) }
        }
    }

    deinit {
        guard let left = registered.withLock({ $0 }) else { return }
        Task { await left.session.disconnectSender(left.id) }
    }
}
