import CueKitCast
import CueKitCastSender
import CueKitCastV2
import CueKitTestSupport
import Foundation
import Testing

@testable import CueKitServer

extension ChromiumReceiverTests {
    /// A sender over Cast v2 (the device `cuekit cast emulate` runs, with this receiver as its
    /// media application) drives the receiver page: each step is checked in what Chromium shows.
    @Test(.enabled(if: toolsInstalled, "needs chromium and ffmpeg; bash .ci/setup installs them"))
    func aCastV2SenderDrivesTheReceiverPage() async throws {
        try await withReceiver(mediaOrigins: .any) { browser, port, mediaPort, server in
            var configuration = CastV2Device.Configuration()
            configuration.port = 0
            let device = CastV2Device(configuration: configuration, application: server.session)
            let castPort = try await device.start()
            let running = Task { try await device.run() }
            defer { running.cancel() }

            let receiver = try await browser.open("http://127.0.0.1:\(port)/receiver")
            #expect(try await receiver.wait(until: "window.cuekit && cuekit.state !== null"))
            let sender = try await RemoteMediaClient.connect(toDevice: "127.0.0.1", port: castPort)

            try await sender.load(Self.load(mediaPort: mediaPort))
            #expect(
                try await receiver.wait(until: "(() => { const t = document.getElementById('track-1'); return t && t.track.mode === 'showing' && t.track.activeCues && t.track.activeCues.length > 0 })()"))
            #expect(try await waitForDrawnCues(receiver) { $0.contains { $0.text.contains("Hello from the English track") } }, "the English cue is not drawn")

            try await sender.setActiveTrackIDs([2])
            #expect(try await receiver.wait(until: "(() => { const m = \(Self.modes); return m['track-1'] === 'disabled' && m['track-2'] === 'showing' })()"))
            #expect(try await waitForDrawnCues(receiver) { cues in
                cues.contains { $0.text.contains("Hallo aus der deutschen Spur") } && !cues.contains { $0.text.contains("English") }
            }, "the German cue is not drawn alone")

            try await sender.setActiveTrackIDs([])
            #expect(try await receiver.wait(until: "Object.values(\(Self.modes)).every(mode => mode === 'disabled')"))
            #expect(try await waitForDrawnCues(receiver) { $0.isEmpty }, "cues are still drawn with every track off")

            try await sender.setActiveTrackIDs([1])
            try await sender.setTextTrackStyle(
                TextTrackStyle(foregroundColor: CastColor(red: 255, green: 255, blue: 0), backgroundColor: CastColor(red: 0, green: 0, blue: 128, alpha: 255)))
            var drawn: [DevToolsPage.DrawnCue] = []
            let styled = try await waitForDrawnCues(receiver) { cues in
                drawn = cues
                return cues.first?.style["color"] == "rgb(255, 255, 0)"
            }
            #expect(styled, "the drawn cue is not yellow: \(drawn.first?.style["color"] ?? "no cue")")
            #expect(drawn.first?.style["background-color"] == "rgb(0, 0, 128)")
            await sender.disconnect()
        }
    }
}
