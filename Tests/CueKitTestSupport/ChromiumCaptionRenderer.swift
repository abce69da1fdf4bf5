import CueKit
import Foundation

/// Draws WebVTT files the way a Cast receiver does, in headless Chromium, and reads back the pixels.
///
/// Each file plays in its own `<video>` (a grey test video made by ffmpeg) with its track showing,
/// paused at a given time; one screenshot holds them all, taken over DevTools (``DevToolsBrowser``)
/// once every video has sought and the cues are painted. The screenshot is converted to PPM by
/// ffmpeg and read here, so the test needs no image library.
public struct ChromiumCaptionRenderer {
    /// The size of each video, in CSS pixels; Chromium's cue font size is 5% of the video height.
    public static let videoWidth = 640
    public static let videoHeight = 360
    public static let columns = 2

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
        let video = directory.appendingPathComponent("grey.webm")
        try Self.check(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                "color=c=0x404040:s=\(Self.videoWidth)x\(Self.videoHeight):d=\(Int(time) + 2):r=10",
                "-c:v", "libvpx", "-g", "1", "-b:v", "200k", "-y", video.path,
            ]
        )
        var videos = ""
        for (index, text) in files.enumerated() {
            try Data(text.utf8).write(to: directory.appendingPathComponent("case-\(index).vtt"))
            let x = (index % Self.columns) * Self.videoWidth
            let y = (index / Self.columns) * Self.videoHeight
            videos += """
                <video src="grey.webm" width="\(Self.videoWidth)" height="\(Self.videoHeight)" muted preload="auto" \
                style="position:absolute;left:\(x)px;top:\(y)px"><track kind="captions" src="case-\(index).vtt" default></video>

                """
        }
        let rows = (files.count + Self.columns - 1) / Self.columns
        let page = """
            <!doctype html>
            <html><body style="margin:0;background:#000;overflow:hidden">
            \(videos)<script>
            let waiting = document.querySelectorAll('video').length;
            for (const video of document.querySelectorAll('video')) {
              video.textTracks[0].mode = 'showing';
              video.addEventListener('loadeddata', () => { video.currentTime = \(time); });
              video.addEventListener('seeked', () => { if (--waiting === 0) document.title = 'ready'; });
            }
            </script></body></html>
            """
        let pageURL = directory.appendingPathComponent("page.html")
        try Data(page.utf8).write(to: pageURL)
        let screenshot = directory.appendingPathComponent("screenshot.png")
        // Driven over DevTools: the screenshot is taken once every video has sought and the cues
        // are painted, however slow the machine (a timed screenshot could come first).
        let (width, height) = (Self.columns * Self.videoWidth, rows * Self.videoHeight)
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
        try await tab.screenshot().write(to: screenshot)
        await tab.close()
        let ppm = directory.appendingPathComponent("screenshot.ppm")
        try Self.check(
            ffmpeg, ["-hide_banner", "-loglevel", "error", "-i", screenshot.path, "-f", "image2", "-c:v", "ppm", "-y", ppm.path])
        let whole = try Image(ppm: Data(contentsOf: ppm))
        return files.indices.map { index in
            whole.crop(
                x: (index % Self.columns) * Self.videoWidth, y: (index / Self.columns) * Self.videoHeight, width: Self.videoWidth,
                height: Self.videoHeight
            )
        }
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
public struct Image {
    public struct Pixel: Equatable {
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

    public struct Region {
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
