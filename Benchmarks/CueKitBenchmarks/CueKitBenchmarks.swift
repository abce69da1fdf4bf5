import Benchmark
import CueKit
import CueKitCast
import CueKitSubRip
import CueKitTTML
import CueKitWebVTT

#if canImport(Glibc)
    import Glibc
#endif

// Each benchmark reads (and writes) a whole generated track per iteration, and reports its
// throughput in cues per second and megabytes per second beside time, allocations and peak memory.

let cuesPerSecond = BenchmarkMetric.custom("cues/s", polarity: .prefersLarger, useScalingFactor: false)
let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, cuesPerSecond, megabytesPerSecond],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(15),
        maxIterations: 10,
        // Allocations do not vary from run to run the way time does: `allocations.sh` checks each
        // 10k benchmark's count against its file in Thresholds/ (which holds that metric alone),
        // and fails when it grows by more than 100, one allocation for every hundred cues.
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 100])]
    )

    let sizes: [(String, @Sendable () -> Inputs.Track, @Sendable () -> Inputs.Track)] = [
        ("10k", { Inputs.webVTT10k }, { Inputs.subRip10k }),
        ("1M", { Inputs.webVTT1M }, { Inputs.subRip1M }),
    ]
    for (size, webVTT, subRip) in sizes {
        measure("WebVTT tokenize \(size) cues", webVTT, Work.tokenize)
        measure("WebVTT full parse with cue trees \(size) cues", webVTT, Work.parseWithTrees)
        measure("WebVTT parse and write back \(size) cues", webVTT, Work.roundTrip)
        measure("WebVTT to TTML (IMSC 1.1) \(size) cues", webVTT, Work.webVTTToTTML)
        measure("WebVTT to TTML (IMSC 1.1), body held in memory, \(size) cues", webVTT, Work.webVTTToTTMLInMemory)
        measure("WebVTT to WebVTT file \(size) cues", webVTT, Work.webVTTToWebVTTFile)
        measure("WebVTT to TTML (IMSC 1.1) file \(size) cues", webVTT, Work.webVTTToTTMLFile)
        measure("Styled WebVTT (Cast style applied) \(size) cues", webVTT, Work.styled)
        measure("SubRip to WebVTT \(size) cues", subRip, Work.subRipToWebVTT)
    }
    measure("TTML to WebVTT 10k cues", { Inputs.ttml10k }, Work.ttmlToWebVTT)
    measure("TTML to WebVTT 100k cues", { Inputs.ttml100k }, Work.ttmlToWebVTT)
}

/// Registers a benchmark of `work` over the input `input()` makes (made before the first
/// measurement, not while registering). `work` returns how many cues it handled.
func measure(_ name: String, _ input: @escaping @Sendable () -> Inputs.Track, _ work: @escaping @Sendable (Inputs.Track) throws -> Int) {
    Benchmark(name) { benchmark in
        let track = input()
        let clock = ContinuousClock()
        let start = clock.now
        benchmark.startMeasurement()
        let cues = try work(track)
        benchmark.stopMeasurement()
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        precondition(cues == track.cues, "\(name): \(cues) cues handled, \(track.cues) expected")
        benchmark.measurement(cuesPerSecond, Int(Double(cues) / seconds))
        benchmark.measurement(megabytesPerSecond, Int(track.megabytes / seconds))
    }
}

/// What is measured. Inputs are fed in 64 KiB chunks, as files are read.
enum Work {
    static let chunkSize = 64 * 1024

    static func chunks(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(offset + chunkSize, all.count)
                try body(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
        }
    }

    /// Lines out of the WebVTT line decoder, cut into blocks at blank lines: the tokenizer alone.
    /// A block whose first or second line holds `-->` is a cue.
    static func tokenize(_ track: Inputs.Track) throws -> Int {
        var decoder = WebVTTLineDecoder()
        var cues = 0
        var lineInBlock = 0
        var isCue = false
        func take(_ line: WebVTTLineDecoder.Line) {
            if line.bytes.isEmpty {
                if isCue { cues += 1 }
                lineInBlock = 0
                isCue = false
                return
            }
            lineInBlock += 1
            if lineInBlock <= 2 && !isCue { isCue = containsArrow(line.bytes) }
        }
        try chunks(track.bytes) { try decoder.decode($0, take) }
        try decoder.finish(take)
        if isCue { cues += 1 }
        return cues
    }

    /// True when the line holds `-->`: each `>` found with `memchr`, then the two bytes before it.
    private static func containsArrow(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= 3 else { return false }
        var offset = 2
        while offset < bytes.count {
            guard let found = memchr(base + offset, Int32(UInt8(ascii: ">")), bytes.count - offset) else { return false }
            let index = base.distance(to: UnsafeRawPointer(found))
            if bytes[index - 1] == UInt8(ascii: "-") && bytes[index - 2] == UInt8(ascii: "-") { return true }
            offset = index + 1
        }
        return false
    }

    /// The whole WebVTT parser, with every diagnostic looked for and every cue's text tree built.
    static func parseWithTrees(_ track: Inputs.Track) throws -> Int {
        var reader = WebVTTReader()
        var cues = 0
        var nodes = 0
        func take(_ event: TrackEvent) {
            if case .cue(let cue) = event {
                cues += 1
                nodes &+= cue.nodes().count
            }
        }
        try chunks(track.bytes) { try reader.feed($0, to: take) }
        try reader.finish(to: take)
        blackHole(nodes)
        return cues
    }

    /// Read and write back as WebVTT.
    static func roundTrip(_ track: Inputs.Track) throws -> Int {
        var writer = WebVTTWriter(to: CountingSink())
        return try readWebVTT(track, into: &writer)
    }

    /// Reads a WebVTT track into `writer` and finishes it; returns the cues written.
    static func readWebVTT<Writer: TrackWriter>(_ track: Inputs.Track, into writer: inout Writer) throws -> Int where Writer.Sink == CountingSink {
        let cues = try readAndWrite(track, into: &writer)
        blackHole(writer.sink.count)
        return cues
    }

    /// Reads a WebVTT track into `writer`, whatever its sink, and finishes it.
    static func readAndWrite<Writer: TrackWriter>(_ track: Inputs.Track, into writer: inout Writer) throws -> Int {
        var reader = WebVTTReader()
        var cues = 0
        func take(_ event: TrackEvent) throws {
            if case .cue = event { cues += 1 }
            try writer.write(event)
        }
        try chunks(track.bytes) { try reader.feed($0, to: take) }
        try reader.finish(to: take)
        try writer.finish()
        return cues
    }

    /// Read WebVTT, write TTML: compare with ``roundTrip`` on the same input. The writer holds
    /// 4 MiB of body in memory and spools the rest to a temporary file (written, then read back),
    /// since the head comes first: I/O the WebVTT writer into a counting sink does not do.
    static func webVTTToTTML(_ track: Inputs.Track) throws -> Int {
        try webVTTToTTML(track, options: TTMLWriterOptions())
    }

    /// The same with the whole body held in memory: the writer's own work, without the spool.
    static func webVTTToTTMLInMemory(_ track: Inputs.Track) throws -> Int {
        try webVTTToTTML(track, options: TTMLWriterOptions(bodyMemoryLimit: Int.max))
    }

    static func webVTTToTTML(_ track: Inputs.Track, options: TTMLWriterOptions) throws -> Int {
        var writer = TTMLWriter(to: CountingSink(), options: options)
        return try readWebVTT(track, into: &writer)
    }

    /// The pair a conversion is: read WebVTT and write WebVTT, or TTML, into a file (an unlinked
    /// temporary file in `TMPDIR`, written through the page cache, not synced). Both paths now
    /// pay for writing their output, as `cuekit convert` does; the TTML path also for its spool.
    static func webVTTToWebVTTFile(_ track: Inputs.Track) throws -> Int {
        try ScratchFile.withSink { sink in
            var writer = WebVTTWriter(to: sink)
            return try readAndWrite(track, into: &writer)
        }
    }

    static func webVTTToTTMLFile(_ track: Inputs.Track) throws -> Int {
        try ScratchFile.withSink { sink in
            var writer = TTMLWriter(to: sink, options: TTMLWriterOptions())
            return try readAndWrite(track, into: &writer)
        }
    }

    static let style: TextTrackStyle = {
        var style = TextTrackStyle()
        style.foregroundColor = CastColor(red: 255, green: 255, blue: 0, alpha: 255)
        style.edgeType = .outline
        style.edgeColor = CastColor(red: 0, green: 0, blue: 0, alpha: 255)
        style.fontScale = 1.5
        style.fontGenericFamily = .sansSerif
        return style
    }()

    /// Read, apply a Cast text track style, write WebVTT.
    static func styled(_ track: Inputs.Track) throws -> Int {
        var reader = WebVTTReader()
        var applier = CastStyleApplier(style: style)
        var writer = WebVTTWriter(to: CountingSink())
        var cues = 0
        func write(_ event: TrackEvent) throws {
            if case .cue = event { cues += 1 }
            try writer.write(event)
        }
        func take(_ event: TrackEvent) throws { try applier.process(event, to: write) }
        try chunks(track.bytes) { try reader.feed($0, to: take) }
        try reader.finish(to: take)
        try applier.finish(to: write)
        try writer.finish()
        blackHole(writer.sink.count)
        return cues
    }

    /// SubRip read and written as WebVTT.
    static func subRipToWebVTT(_ track: Inputs.Track) throws -> Int {
        var reader = SubRipReader()
        var writer = WebVTTWriter(to: CountingSink())
        var cues = 0
        func take(_ event: TrackEvent) throws {
            if case .cue = event { cues += 1 }
            if case .stylesheet = event { return }  // written by a first pass in `cuekit convert`
            try writer.write(event)
        }
        try chunks(track.bytes) { try reader.feed($0, to: take) }
        try reader.finish(to: take)
        try writer.finish()
        blackHole(writer.sink.count)
        return cues
    }

    /// A TTML file read (two passes, as `cuekit convert` reads it) and written as WebVTT.
    static func ttmlToWebVTT(_ track: Inputs.Track) throws -> Int {
        var writer = WebVTTWriter(to: CountingSink())
        var cues = 0
        try TTMLReader.stream(fileAtPath: track.path) { event in
            if case .cue = event { cues += 1 }
            try writer.write(event)
        }
        try writer.finish()
        blackHole(writer.sink.count)
        return cues
    }
}
