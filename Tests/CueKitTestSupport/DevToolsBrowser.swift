import CueKit
import CueKitCast
import Foundation

/// Headless Chromium driven over the DevTools protocol: open pages, run script in them, read the
/// drawn DOM (user-agent shadow trees included, where the cue boxes are), computed styles, and
/// screenshots.
///
/// Chromium writes the port it listens on to `DevToolsActivePort` in its profile folder; each page
/// is a target with its own WebSocket.
public final class DevToolsBrowser: @unchecked Sendable {
    public let chromium: RunningCommand
    public let profile: TemporaryDirectory
    public let port: Int
    /// The browser's own target, which opens tabs.
    public var control: DevToolsPage?

    /// Starts Chromium with a window of `width`×`height` and `switches` besides the usual; nil when
    /// Chromium is not installed.
    public static func launch(width: Int = 1280, height: Int = 720, switches: [String] = []) async throws -> DevToolsBrowser? {
        guard let executable = Chromium.executable else { return nil }
        let profile = TemporaryDirectory()
        let chromium = try RunningCommand(
            URL(fileURLWithPath: executable),
            Chromium.headlessSwitches + [
                "--remote-debugging-port=0", "--remote-allow-origins=*",
                "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)", "--force-device-scale-factor=1", "--hide-scrollbars",
                "--autoplay-policy=no-user-gesture-required", "--mute-audio", "--no-first-run", "--disable-extensions",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows",
                "--disable-features=BackgroundMediaSuspend,MediaSessionService",
            ] + switches + ["about:blank"],
            standardError: .nullDevice)
        let portFile = profile.file("DevToolsActivePort")
        for _ in 0..<300 {
            if let text = profile.read("DevToolsActivePort") {
                let lines = text.split(separator: "\n")
                if lines.count >= 2, let port = Int(lines[0]) {
                    let browser = DevToolsBrowser(chromium: chromium, profile: profile, port: port)
                    browser.control = try await DevToolsPage.connect(to: "ws://127.0.0.1:\(port)\(lines[1])")
                    return browser
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        chromium.stop()
        profile.remove()
        throw Failure("Chromium did not write \(portFile) within 30 s")
    }

    private init(chromium: RunningCommand, profile: TemporaryDirectory, port: Int) {
        self.chromium = chromium
        self.profile = profile
        self.port = port
    }

    /// Ends Chromium (and so its connections); safe to call again.
    public func close() {
        guard chromium.process.isRunning else { return }
        if let control { Task { await control.close() } }
        chromium.stop()
        profile.remove()
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Opens `url` in a new tab.
    public func open(_ url: String) async throws -> DevToolsPage {
        guard let control else { throw Failure("not connected to the browser") }
        let target = try await control.call("Target.createTarget", ["url": .string(url), "newWindow": true, "background": false])
        guard let id = target["targetId"]?.stringValue else { throw Failure("no target for \(url)") }
        return try await DevToolsPage.connect(to: "ws://127.0.0.1:\(port)/devtools/page/\(id)")
    }
}

/// One tab, over its DevTools WebSocket (a ``JSONWebSocket`` whose answers carry `id`).
public actor DevToolsPage {
    private let socket: JSONWebSocket
    private var nextID = 1

    private init(socket: JSONWebSocket) { self.socket = socket }

    public static func connect(to url: String) async throws -> DevToolsPage {
        DevToolsPage(socket: try await JSONWebSocket.connect(to: url, answersCarry: "id", maximumMessageSize: 1 << 28))
    }

    /// Calls a DevTools method and returns its `result`.
    public func call(_ method: String, _ parameters: CastJSONObject = CastJSONObject()) async throws -> CastJSONObject {
        let id = nextID
        nextID += 1
        var message = CastJSONObject()
        message["id"] = .number(Double(id))
        message["method"] = .string(method)
        message["params"] = .object(parameters)
        let answer = try await socket.request(message, id: id)
        if let error = answer["error"] { throw DevToolsBrowser.Failure("\(method): \(error.serialized(.compact))") }
        return answer["result"]?.objectValue ?? CastJSONObject()
    }

    /// Evaluates `expression` in the page (promises awaited) and returns its value as JSON.
    public func evaluate(_ expression: String) async throws -> CastJSONValue {
        let result = try await call(
            "Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] {
            throw DevToolsBrowser.Failure("script failed: \(exception.serialized(.compact))")
        }
        return result["result"]?.objectValue?["value"] ?? .null
    }

    /// Evaluates `condition` every 100 ms until it is true, for at most `seconds`.
    public func wait(until condition: String, seconds: Double = 15) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if case .bool(true) = try await evaluate(condition) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// A drawn cue: its text as laid out, and its computed style.
    public struct DrawnCue: Sendable {
        public var text: String
        public var style: [String: String]
    }

    /// The cues Chromium draws over the video: the `cue` boxes of the user-agent shadow tree
    /// of the media element, with their computed style.
    public func drawnCues() async throws -> [DrawnCue] {
        _ = try await call("DOM.enable")
        _ = try await call("CSS.enable")
        let document = try await call("DOM.getDocument", ["depth": -1, "pierce": true])
        var found: [(Int, String)] = []
        func text(of node: CastJSONObject) -> String {
            if node["nodeType"]?.numberValue == 3 { return node["nodeValue"]?.stringValue ?? "" }
            return (node["children"]?.arrayValue ?? []).compactMap(\.objectValue).map(text(of:)).joined()
        }
        func visit(_ node: CastJSONObject) {
            let attributes = node["attributes"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if let index = attributes.firstIndex(of: "pseudo"), index + 1 < attributes.count, attributes[index + 1] == "cue",
                let id = node["nodeId"]?.numberValue
            {
                found.append((Int(id), text(of: node)))
            }
            for key in ["children", "shadowRoots"] {
                for child in node[key]?.arrayValue ?? [] { if let child = child.objectValue { visit(child) } }
            }
        }
        if let root = document["root"]?.objectValue { visit(root) }
        var cues: [DrawnCue] = []
        for (id, text) in found {
            // A cue box can go between the two calls, as the cues change: it is drawn no more.
            guard let computed = try? await call("CSS.getComputedStyleForNode", ["nodeId": .number(Double(id))]) else { continue }
            var style: [String: String] = [:]
            for entry in computed["computedStyle"]?.arrayValue ?? [] {
                if let name = entry.objectValue?["name"]?.stringValue, let value = entry.objectValue?["value"]?.stringValue { style[name] = value }
            }
            cues.append(DrawnCue(text: text, style: style))
        }
        return cues
    }

    /// A PNG of the page.
    public func screenshot() async throws -> Data {
        let result = try await call("Page.captureScreenshot", ["format": "png"])
        guard let base64 = result["data"]?.stringValue, let data = Data(base64Encoded: base64) else {
            throw DevToolsBrowser.Failure("no screenshot")
        }
        return data
    }

    public func close() async {
        await socket.close()
    }
}
