import CueKitCast
import Foundation

/// Where Chromium draws each cue of WebVTT files: the box of each cue's text (its `::cue` box, the
/// backdrop round the text, all its lines), read from the layout of the media element's user-agent
/// shadow tree over DevTools, in percent of the video.
///
/// Each file plays in its own `<video>` (``ChromiumCaptionRenderer/videoWidth`` ×
/// ``ChromiumCaptionRenderer/videoHeight``, the grey test video) paused at a time; videos are laid
/// out in pages of at most ``videosPerPage``, one page after another in one Chromium.
public enum ChromiumCueBoxes {
    /// A cue's text box, in percent of the video's width (`left`, `right`) and height.
    public struct Box: Sendable, CustomStringConvertible {
        public var left: Double
        public var top: Double
        public var right: Double
        public var bottom: Double

        public var description: String {
            func format(_ value: Double) -> String { String(format: "%.1f", value) }
            return "x \(format(left))-\(format(right))% y \(format(top))-\(format(bottom))%"
        }

        /// The largest distance between matching edges, in percent of the video.
        public func distance(to other: Box) -> Double {
            max(abs(left - other.left), abs(right - other.right), abs(top - other.top), abs(bottom - other.bottom))
        }
    }

    /// How many videos a page holds.
    public static let videosPerPage = 12

    /// The boxes of the cues each file shows at `time` seconds, in the order Chromium lays them out.
    public static func boxes(of files: [String], at time: Double = 0.5) async throws -> [[Box]] {
        guard let renderer = try ChromiumCaptionRenderer.make() else {
            throw ChromiumFailure(message: "chromium or ffmpeg is not installed")
        }
        defer { renderer.removeFiles() }
        let directory = renderer.directory
        let (width, height) = (ChromiumCaptionRenderer.videoWidth, ChromiumCaptionRenderer.videoHeight)
        let make = ExternalProcess.run(
            renderer.ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                "color=c=0x\(ChromiumCaptionRenderer.background):s=\(width)x\(height):d=\(Int(time) + 2):r=10",
                "-c:v", "libvpx", "-g", "1", "-b:v", "200k", "-y", directory.appendingPathComponent("grey.webm").path,
            ], deadline: 120)
        guard make.status == 0 else { throw ChromiumFailure(message: "ffmpeg: \(make.error.suffix(2_000))") }
        let columns = 4
        let rows = (videosPerPage + columns - 1) / columns
        guard
            let browser = try await DevToolsBrowser.launch(
                width: columns * width, height: rows * height, switches: ["--allow-file-access-from-files"])
        else { throw ChromiumFailure(message: "Chromium is not installed") }
        defer { browser.close() }
        var result: [[Box]] = []
        for first in stride(from: 0, to: files.count, by: videosPerPage) {
            let batch = Array(files[first..<min(first + videosPerPage, files.count)])
            var videos = ""
            for (index, file) in batch.enumerated() {
                try Data(file.utf8).write(to: directory.appendingPathComponent("file-\(first + index).vtt"))
                videos += """
                    <video id="v\(index)" src="grey.webm" width="\(width)" height="\(height)" muted preload="auto" \
                    style="position:absolute;left:\((index % columns) * width)px;top:\((index / columns) * height)px">\
                    <track kind="captions" src="file-\(first + index).vtt" default></video>

                    """
            }
            let page = """
                <!doctype html>
                <html><body style="margin:0;background:#000;overflow:hidden">
                \(videos)<script>
                let waiting = document.querySelectorAll('video').length;
                for (const video of document.querySelectorAll('video')) {
                  video.textTracks[0].mode = 'showing';
                  const seek = () => { if (!video.dataset.seeking) { video.dataset.seeking = '1'; video.currentTime = \(time); } };
                  video.addEventListener('seeked', () => { video.dataset.sought = '1'; if (--waiting === 0) document.title = 'ready'; });
                  if (video.readyState >= 2) seek(); else video.addEventListener('loadeddata', seek);
                }
                function states() {
                  return Array.from(document.querySelectorAll('video'), v => v.id + ':' + v.readyState + (v.dataset.sought ? ' sought' : '') + (v.error ? ' error ' + v.error.code : '')).join(', ');
                }
                </script></body></html>
                """
            let pageURL = directory.appendingPathComponent("page-\(first).html")
            try Data(page.utf8).write(to: pageURL)
            let tab = try await browser.open(pageURL.absoluteString)
            guard try await tab.wait(until: "document.title === 'ready'", seconds: 120) else {
                let states = try await tab.evaluate("states()").stringValue ?? ""
                await tab.close()
                throw ChromiumFailure(message: "the videos did not seek to \(time) s within 120 s: \(states)")
            }
            _ = try await tab.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
            result += try await cueBoxes(in: tab, videos: batch.count)
            await tab.close()
        }
        return result
    }

    /// The boxes of the `cue` nodes in each video's shadow tree, relative to the video.
    private static func cueBoxes(in tab: DevToolsPage, videos: Int) async throws -> [[Box]] {
        _ = try await tab.call("DOM.enable")
        let document = try await tab.call("DOM.getDocument", ["depth": -1, "pierce": true])
        var videoNodes = [Int?](repeating: nil, count: videos)
        var cueNodes = [[Int]](repeating: [], count: videos)
        func visit(_ node: CastJSONObject, video: Int?) {
            var video = video
            let attributes = node["attributes"]?.arrayValue?.compactMap(\.stringValue) ?? []
            func attribute(_ name: String) -> String? {
                guard let index = attributes.firstIndex(of: name), index % 2 == 0, index + 1 < attributes.count else { return nil }
                return attributes[index + 1]
            }
            guard let id = node["nodeId"]?.numberValue.map(Int.init) else { return }
            if node["nodeName"]?.stringValue == "VIDEO", let name = attribute("id"), let index = Int(name.dropFirst()), index < videos {
                video = index
                videoNodes[index] = id
            }
            if attribute("pseudo") == "cue", let video { cueNodes[video].append(id) }
            for key in ["children", "shadowRoots"] {
                for child in node[key]?.arrayValue ?? [] { if let child = child.objectValue { visit(child, video: video) } }
            }
        }
        if let root = document["root"]?.objectValue { visit(root, video: nil) }
        var result: [[Box]] = []
        for index in 0..<videos {
            guard let videoNode = videoNodes[index], let frame = try await bounds(of: videoNode, in: tab) else {
                throw ChromiumFailure(message: "video \(index) has no layout")
            }
            var boxes: [Box] = []
            for node in cueNodes[index] {
                guard let box = try await bounds(of: node, in: tab) else { continue }
                let (width, height) = (frame.right - frame.left, frame.bottom - frame.top)
                boxes.append(
                    Box(
                        left: (box.left - frame.left) / width * 100, top: (box.top - frame.top) / height * 100,
                        right: (box.right - frame.left) / width * 100, bottom: (box.bottom - frame.top) / height * 100))
            }
            result.append(boxes)
        }
        return result
    }

    /// The union of a node's content quads, in page pixels; nil when it has none.
    private static func bounds(of node: Int, in tab: DevToolsPage) async throws -> Box? {
        let answer = try await tab.call("DOM.getContentQuads", ["nodeId": .number(Double(node))])
        var box: Box?
        for quad in answer["quads"]?.arrayValue ?? [] {
            let numbers = quad.arrayValue?.compactMap(\.numberValue) ?? []
            guard numbers.count == 8 else { continue }
            let xs = stride(from: 0, to: 8, by: 2).map { numbers[$0] }
            let ys = stride(from: 1, to: 8, by: 2).map { numbers[$0] }
            let quadBox = Box(left: xs.min()!, top: ys.min()!, right: xs.max()!, bottom: ys.max()!)
            box =
                box.map {
                    Box(
                        left: min($0.left, quadBox.left), top: min($0.top, quadBox.top), right: max($0.right, quadBox.right),
                        bottom: max($0.bottom, quadBox.bottom))
                } ?? quadBox
        }
        return box
    }
}
