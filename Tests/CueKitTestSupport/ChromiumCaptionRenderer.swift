import CueKit
import Foundation

/// Draws WebVTT files the way a Cast receiver does, in headless Chromium, and reads back the pixels.
///
/// Each file plays in its own `<video>` (a grey test video made by ffmpeg) with its track showing,
/// paused at a given time; a TTML document is drawn beside them by imscJS (``IMSCRenderer``). One
/// screenshot holds them all, taken over DevTools (``DevToolsBrowser``) once every video has sought
/// and the cues are painted. The screenshot is converted to PPM by
/// ffmpeg and read here, so the test needs no image library.
public struct ChromiumCaptionRenderer {
    /// The size of each video, in CSS pixels; Chromium's cue font size is 5% of the video height.
    public static let videoWidth = 640
    public static let videoHeight = 360
    public static let columns = 2
    /// The grey of the test video, as `rrggbb`; TTML panels are drawn over the same grey.
    public static let background = "404040"

    public let chromium: String
    public let ffmpeg: String
    public let directory: URL

    /// The renderer, when both chromium and ffmpeg are installed.
    public static func make() throws -> ChromiumCaptionRenderer? {
        guard let chromium = Chromium.executable, let ffmpeg = ExternalProcess.find("ffmpeg") else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cuekit-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return ChromiumCaptionRenderer(chromium: chromium, ffmpeg: ffmpeg, directory: directory)
    }

    public static var isAvailable: Bool { Chromium.isInstalled && ExternalProcess.isInstalled("ffmpeg") }

    /// Renders each WebVTT text in its own video, paused at `time` seconds, and returns one image
    /// per file.
    public func render(_ files: [String], at time: Double = 0.5) async throws -> [Image] {
        try await render(files.map(Panel.webVTT), columns: Self.columns, at: time).images
    }

    /// What one panel of the page draws, in a box of the video's size.
    public enum Panel: Sendable {
        /// A WebVTT file, drawn by Chromium's own `<video>` and `<track>`, as a Cast receiver draws it.
        case webVTT(String)
        /// A TTML document, drawn by imscJS (``IMSCRenderer``) over the video's grey.
        case ttml(String)
    }

    /// The pictures of the panels, and what imscJS's error handler said about each (always empty
    /// for a WebVTT panel).
    public struct Rendering: Sendable {
        public var images: [Image]
        public var imscMessages: [[String]]
    }

    /// Draws every panel at `time` seconds in one page of `columns` columns, in one Chromium, and
    /// returns a picture of each.
    public func render(_ panels: [Panel], columns: Int, at time: Double = 0.5) async throws -> Rendering {
        let video = directory.appendingPathComponent("grey.webm")
        try Self.check(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                "color=c=0x\(Self.background):s=\(Self.videoWidth)x\(Self.videoHeight):d=\(Int(time) + 2):r=10",
                "-c:v", "libvpx", "-g", "1", "-b:v", "200k", "-y", video.path,
            ]
        )
        var boxes = ""
        for (index, panel) in panels.enumerated() {
            let place = "position:absolute;left:\((index % columns) * Self.videoWidth)px;top:\((index / columns) * Self.videoHeight)px"
            switch panel {
            case .webVTT(let text):
                try Data(text.utf8).write(to: directory.appendingPathComponent("case-\(index).vtt"))
                boxes += """
                    <video class="panel" src="grey.webm" width="\(Self.videoWidth)" height="\(Self.videoHeight)" muted preload="auto" \
                    style="\(place)"><track kind="captions" src="case-\(index).vtt" default></video>

                    """
            case .ttml(let text):
                try Data(text.utf8).write(to: directory.appendingPathComponent("case-\(index).ttml"))
                boxes += """
                    <div class="panel" data-ttml="case-\(index).ttml" style="\(place);width:\(Self.videoWidth)px;height:\(Self.videoHeight)px;\
                    overflow:hidden;background:#\(Self.background)"></div>

                    """
            }
        }
        let rows = (panels.count + columns - 1) / columns
        let page = """
            <!doctype html>
            <html><body style="margin:0;background:#000;overflow:hidden">
            \(boxes)<script>
            \(panels.contains { if case .ttml = $0 { true } else { false } } ? IMSCRenderer.loaderScript + "\n" + IMSCRenderer.drawScript : "")
            const imscMessages = [];
            for (const box of document.querySelectorAll(".panel")) {
              imscMessages.push(box.dataset.ttml ? drawTTML(box.dataset.ttml, box, \(time), \(Self.videoWidth), \(Self.videoHeight)) : []);
            }
            let waiting = document.querySelectorAll('video').length;
            for (const video of document.querySelectorAll('video')) {
              video.textTracks[0].mode = 'showing';
              // Seeks once the first frame is there, whether or not it came before this script.
              const seek = () => { if (!video.dataset.seeking) { video.dataset.seeking = '1'; video.currentTime = \(time); } };
              video.addEventListener('seeked', () => { if (--waiting === 0) document.title = 'ready'; });
              if (video.readyState >= 2) seek(); else video.addEventListener('loadeddata', seek);
            }
            if (waiting === 0) document.title = 'ready';
            </script></body></html>
            """
        let pageURL = directory.appendingPathComponent("page.html")
        try Data(page.utf8).write(to: pageURL)
        let screenshot = directory.appendingPathComponent("screenshot.png")
        // Driven over DevTools: the screenshot is taken once every video has sought and the cues
        // are painted, however slow the machine (a timed screenshot could come first).
        let (width, height) = (columns * Self.videoWidth, rows * Self.videoHeight)
        guard let browser = try await DevToolsBrowser.launch(width: width, height: height, switches: ["--allow-file-access-from-files"]) else {
            throw ChromiumFailure(message: "Chromium is not installed")
        }
        defer { browser.close() }
        let tab = try await browser.open(pageURL.absoluteString)
        _ = try await tab.call(
            "Emulation.setDeviceMetricsOverride", ["width": .number(Double(width)), "height": .number(Double(height)), "deviceScaleFactor": 1, "mobile": false])
        guard try await tab.wait(until: "document.title === 'ready'", seconds: 60) else {
            throw ChromiumFailure(message: "the videos did not seek to \(time) s within 60 s")
        }
        _ = try await tab.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
        let messages = try await tab.evaluate("imscMessages").arrayValue?.map { $0.arrayValue?.compactMap(\.stringValue) ?? [] } ?? []
        guard messages.count == panels.count else {
            throw ChromiumFailure(message: "the page drew \(messages.count) of \(panels.count) panels")
        }
        try await tab.screenshot().write(to: screenshot)
        await tab.close()
        let ppm = directory.appendingPathComponent("screenshot.ppm")
        try Self.check(
            ffmpeg, ["-hide_banner", "-loglevel", "error", "-i", screenshot.path, "-f", "image2", "-c:v", "ppm", "-y", ppm.path])
        let whole = try Image(ppm: Data(contentsOf: ppm))
        let images = panels.indices.map { index in
            whole.crop(
                x: (index % columns) * Self.videoWidth, y: (index / columns) * Self.videoHeight, width: Self.videoWidth,
                height: Self.videoHeight
            )
        }
        return Rendering(images: images, imscMessages: messages)
    }

    /// Runs `program` to completion (killed after two minutes); throws when it fails.
    private static func check(_ program: String, _ arguments: [String]) throws {
        let run = ExternalProcess.run(program, arguments, deadline: 120)
        guard run.status == 0 else {
            throw ChromiumFailure(message: "\(program) exited with status \(run.status): \((run.error + run.output).suffix(2_000))")
        }
    }

    /// The screenshot, for a person to look at when a test fails.
    public var screenshotPath: String { directory.appendingPathComponent("screenshot.png").path }

    public func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// An RGB image.
public struct Image: Sendable {
    public struct Pixel: Equatable, Sendable {
        public var red: Int
        public var green: Int
        public var blue: Int
    }

    public let width: Int
    public let height: Int
    private let pixels: [UInt8]

    /// Reads a binary PPM (P6, maximum value 255).
    public init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var index = 0
        while fields.count < 4 && index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
            var field = ""
            while index < bytes.count, !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09) {
                field.append(Character(Unicode.Scalar(bytes[index])))
                index += 1
            }
            fields.append(field)
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255",
            bytes.count - index >= width * height * 3
        else { throw ChromiumFailure(message: "not a binary PPM image: \(fields)") }
        self.width = width
        self.height = height
        self.pixels = Array(bytes[index..<(index + width * height * 3)])
    }

    private init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public subscript(x: Int, y: Int) -> Pixel {
        let offset = (y * width + x) * 3
        return Pixel(red: Int(pixels[offset]), green: Int(pixels[offset + 1]), blue: Int(pixels[offset + 2]))
    }

    public func crop(x: Int, y: Int, width: Int, height: Int) -> Image {
        var result: [UInt8] = []
        result.reserveCapacity(width * height * 3)
        for row in y..<min(y + height, self.height) {
            let start = (row * self.width + x) * 3
            result += pixels[start..<(start + min(width, self.width - x) * 3)]
        }
        return Image(width: min(width, self.width - x), height: min(height, self.height - y), pixels: result)
    }

    /// The pixels matching `predicate`: how many, their bounding box and their centroid.
    public func region(where predicate: (Pixel) -> Bool) -> Region {
        var region = Region()
        for y in 0..<height {
            for x in 0..<width where predicate(self[x, y]) {
                region.add(x: x, y: y)
            }
        }
        return region
    }

    /// Where edge pixels lie against text pixels: how many edge pixels have text within `reach`
    /// pixels up and to the left of them (the edge falls down-right of the text), and how many have
    /// text down and to the right (the edge falls up-left).
    public func edgeDirections(text isText: (Pixel) -> Bool, edge isEdge: (Pixel) -> Bool, reach: Int = 6) -> (downRight: Int, upLeft: Int) {
        var downRight = 0
        var upLeft = 0
        for y in 0..<height {
            for x in 0..<width where isEdge(self[x, y]) {
                if (1...reach).contains(where: { x - $0 >= 0 && y - $0 >= 0 && isText(self[x - $0, y - $0]) }) { downRight += 1 }
                if (1...reach).contains(where: { x + $0 < width && y + $0 < height && isText(self[x + $0, y + $0]) }) { upLeft += 1 }
            }
        }
        return (downRight, upLeft)
    }

    public struct Region: Sendable {
        public var count = 0
        public var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        private var sumX = 0, sumY = 0

        public mutating func add(x: Int, y: Int) {
            count += 1
            minX = Swift.min(minX, x)
            maxX = Swift.max(maxX, x)
            minY = Swift.min(minY, y)
            maxY = Swift.max(maxY, y)
            sumX += x
            sumY += y
        }

        public var height: Int { count == 0 ? 0 : maxY - minY + 1 }
        public var centroid: (x: Double, y: Double) { (Double(sumX) / Double(Swift.max(count, 1)), Double(sumY) / Double(Swift.max(count, 1))) }
    }
}
