import CueKitCast
import CueKitCastSender
import CueKitTestSupport
import Foundation
import Testing

@testable import CueKitCastV2

// The iOS SDK's names, as plain aliases: code written against them compiles unchanged.
private typealias GCKMediaTrack = MediaTrack
private typealias GCKMediaMetadata = MediaMetadata
private typealias GCKMediaInformation = MediaInformation
private typealias GCKMediaInformationBuilder = MediaInformationBuilder
private typealias GCKMediaTextTrackStyle = TextTrackStyle
private typealias GCKColor = CastColor
private typealias GCKRequest = CastRequest
private typealias GCKRequestDelegate = CastRequestDelegate
private typealias GCKSessionManager = SessionManager
private let kGCKMetadataKeyTitle = MediaMetadata.Key.title
private let kGCKMetadataKeySubtitle = MediaMetadata.Key.subtitle

/// A screen of an iPhone app that casts a film with English captions, written as the iOS sender
/// guide writes one: synchronous methods on the main actor, requests answered through a delegate.
@MainActor
private final class FilmPlayerScreen: GCKRequestDelegate {
    let sessionManager = GCKSessionManager()
    private(set) var mediaInformation: GCKMediaInformation?
    private(set) var styleRequest: GCKRequest?
    private(set) var styleCompletions: [GCKRequest] = []
    private(set) var styleFailures: [any Error] = []

    func prepareMedia() {
        let captions = GCKMediaTrack(
            identifier: 1, contentIdentifier: "https://example.com/film/captions-en.vtt", contentType: "text/vtt", type: .text,
            textSubtype: .captions, name: "English captions", languageCode: "en", customData: nil)
        var metadata = GCKMediaMetadata(metadataType: .movie)
        metadata.setString("The Lighthouse Keeper", forKey: kGCKMetadataKeyTitle)
        metadata.setString("A short film", forKey: kGCKMetadataKeySubtitle)
        metadata.addImage(.init(url: "https://example.com/film/poster.jpg", width: 480, height: 720))

        let builder = GCKMediaInformationBuilder(contentURL: URL(string: "https://example.com/film/film.mp4")!)
        builder.streamType = .none
        builder.contentType = "video/mp4"
        builder.metadata = metadata
        builder.mediaTracks = [captions]
        mediaInformation = builder.build()
    }

    @discardableResult
    func castFilm() -> GCKRequest? {
        guard let mediaInformation else { return nil }
        return sessionManager.currentSession?.remoteMediaClient?.loadMedia(mediaInformation)
    }

    @discardableResult
    func showCaptions() -> GCKRequest? {
        sessionManager.currentSession?.remoteMediaClient?.setActiveTrackIDs([1])
    }

    func makeCaptionsRedAndSerif() {
        var style = GCKMediaTextTrackStyle.createDefault()
        style.foregroundColor = GCKColor(cssString: "#FF000080")
        style.fontGenericFamily = .serif
        styleRequest = sessionManager.currentSession?.remoteMediaClient?.setTextTrackStyle(style)
        styleRequest?.delegate = self
    }

    @discardableResult
    func hideCaptions() -> GCKRequest? {
        sessionManager.currentSession?.remoteMediaClient?.setActiveTrackIDs(nil)
    }

    func requestDidComplete(_ request: GCKRequest) {
        if request == styleRequest { styleCompletions.append(request) }
    }

    func request(_ request: GCKRequest, didFailWithError error: any Error) {
        styleFailures.append(error)
    }
}

/// The guide's program against `cuekit cast emulate` (the command, as a developer runs it), watched
/// by a second sender of the test's own on the device's WebSocket.
@Suite(.tags(.network), .skippableByTag) struct IOSSenderGuideTests {
    /// What the watching sender heard: whether each status carried media, the active tracks,
    /// and the style when media came.
    struct Heard: Equatable {
        var carriesMedia: Bool
        var activeTrackIDs: [Int]
        var style: CastJSONValue?
    }

    /// Starts `cuekit-cast cast emulate` on free ports; its Cast v2 and HTTP ports once it listens.
    static func startEmulator(in folder: TemporaryDirectory) throws -> (RunningCommand, castPort: Int, httpPort: Int) {
        let log = folder.file("emulator.log")
        folder.write("", to: "emulator.log")
        let emulator = try RunningCommand(
            CommandLineRun.product("cuekit-cast"), ["cast", "emulate", "--port", "0", "--http-port", "0", "--folder", folder.path],
            standardError: FileHandle(forWritingAtPath: log))
        let marker = "Cast device on 127.0.0.1:"
        _ = emulator.wait(seconds: 60) { $0.contains(marker) && $0.contains("http://127.0.0.1:") }
        let text = emulator.text
        func port(after marker: String) -> Int? {
            guard let range = text.range(of: marker) else { return nil }
            return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        guard let castPort = port(after: marker), let httpPort = port(after: "http://127.0.0.1:") else {
            emulator.stop()
            throw TimedOut(limit: .seconds(60))
        }
        return (emulator, castPort, httpPort)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CommandLineRun.product("cuekit-cast").path), "cuekit-cast is not built"))
    @MainActor func theGuidesCodeCastsAFilmWithCaptionsAndAnotherSenderHearsEachStep() async throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let (emulator, port, httpPort) = try Self.startEmulator(in: folder)
        defer { emulator.stop() }

        // The watcher joins the device's receiver on its WebSocket first, and keeps what it is told
        // unasked (requestId 0); a status it asks for comes back with its own id.
        let watcher = try await JSONWebSocket.connect(to: "ws://127.0.0.1:\(httpPort)/cast", answersCarry: "requestId")
        let (heard, hear) = AsyncStream<Heard>.makeStream()
        let listening = Task {
            for await object in watcher.unanswered where object["type"]?.stringValue == "MEDIA_STATUS" && object["requestId"] == 0 {
                guard let status = object["status"]?.arrayValue?.first?.objectValue else { continue }
                let media = status["media"]?.objectValue
                hear.yield(
                    Heard(
                        carriesMedia: media != nil,
                        activeTrackIDs: (status["activeTrackIds"]?.arrayValue ?? []).compactMap { $0.numberValue.map(Int.init) },
                        style: media?["textTrackStyle"]))
            }
            hear.finish()
        }
        defer { listening.cancel() }
        var asked = 900
        // What the device holds, asked by the watcher.
        func status() async throws -> (media: MediaInformation?, activeTrackIDs: [Int]) {
            asked += 1
            let answer = try await watcher.request(["type": "GET_STATUS", "requestId": .number(Double(asked))], id: asked)
            let first = answer["status"]?.arrayValue?.first?.objectValue
            let media = try first?["media"].map { try MediaInformation(json: $0) }
            return (media, (first?["activeTrackIds"]?.arrayValue ?? []).compactMap { $0.numberValue.map(Int.init) })
        }
        _ = try await status()

        let screen = FilmPlayerScreen()
        screen.prepareMedia()
        try await screen.sessionManager.connect(toDevice: "127.0.0.1", port: port)
        screen.castFilm()
        screen.showCaptions()
        screen.makeCaptionsRedAndSerif()
        let hidden = try #require(screen.hideCaptions())
        try await hidden.completion

        #expect(screen.styleCompletions.count == 1)
        #expect(screen.styleFailures.isEmpty)
        #expect(screen.styleRequest?.isFinished == true)
        let loaded = try #require(try await status().media)
        #expect(loaded.contentID == "https://example.com/film/film.mp4")
        #expect(loaded.streamType == MediaInformation.StreamType.none)
        #expect(loaded.mediaMetadata?.metadataType == .movie)
        #expect(loaded.mediaMetadata?.title == "The Lighthouse Keeper")
        #expect(loaded.metadata?.objectValue?["metadataType"] == 1)
        #expect(loaded.tracks?.first?.subtype == .captions)
        #expect(try await status().activeTrackIDs == [])

        let style = TextTrackStyle(
            foregroundColor: CastColor(red: 255, green: 0, blue: 0, alpha: 128), fontScale: 1, fontGenericFamily: .serif)
        let told = try await Self.within(.seconds(30)) {
            var told: [Heard] = []
            for await one in heard {
                told.append(one)
                if told.count == 4 { break }
            }
            return told
        }
        #expect(told.map(\.carriesMedia) == [true, false, true, false])
        #expect(told.map(\.activeTrackIDs) == [[], [1], [1], []])
        #expect(told.dropFirst(2).first?.style.flatMap { try? TextTrackStyle(json: $0) } == style)
        #expect(try await status().media?.textTrackStyle == style)

        await screen.sessionManager.endSession()
        #expect(screen.sessionManager.currentSession == nil)
        // A late answer does not tell the delegate twice.
        #expect(screen.styleCompletions.count == 1)
        await watcher.close()
    }

    /// Nothing came within the limit.
    struct TimedOut: Error {
        var limit: Duration
    }

    /// `body`'s result, or ``TimedOut`` when it takes longer than `limit`.
    static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw TimedOut(limit: limit) }
            return value
        }
    }
}
