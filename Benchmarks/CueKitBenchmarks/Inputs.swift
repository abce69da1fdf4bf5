import CueKit
import CueKitSynthetic

#if canImport(Glibc)
    import Glibc
#endif

/// The benchmark inputs, generated once at start by ``TrackGenerator`` (seed 7), in memory and,
/// for the readers that read files, in a temporary folder.
enum Inputs {
    /// A generated track: its bytes, its cue count, and a file holding the same bytes.
    struct Track: Sendable {
        let cues: Int
        let bytes: [UInt8]
        let path: String

        var megabytes: Double { Double(bytes.count) / 1_000_000 }
    }

    /// The folder of the files, removed with them when the process exits.
    static let folder: String = {
        var template = Array("/tmp/cuekit-benchmarks-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot make a temporary folder")
        atexit { Inputs.removeFolder() }
        return String(cString: made!)
    }()

    /// Removes the generated files (the folder holds nothing else) and the folder.
    private static func removeFolder() {
        guard let handle = opendir(folder) else { return }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { unlink(folder + "/" + name) }
        }
        closedir(handle)
        rmdir(folder)
    }

    static func make(_ cues: Int, _ format: TrackGenerator.Format) -> Track {
        var generator = TrackGenerator(options: .init(cues: cues, seed: 7, format: format))
        var sink = MemorySink()
        try! generator.write(to: &sink)
        let path = "\(folder)/\(cues).\(format.rawValue)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(descriptor >= 0, "cannot write \(path)")
        sink.bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                precondition(written > 0)
                offset += written
            }
        }
        close(descriptor)
        return Track(cues: cues, bytes: sink.bytes, path: path)
    }

    static let webVTT10k = make(10_000, .webVTT)
    static let webVTT1M = make(1_000_000, .webVTT)
    static let subRip10k = make(10_000, .subRip)
    static let subRip1M = make(1_000_000, .subRip)
    static let ttml10k = make(10_000, .ttml)
    static let ttml100k = make(100_000, .ttml)
}

/// A sink that counts bytes and keeps none: writing is measured, not the memory of the output.
struct CountingSink: ByteSink {
    private(set) var count = 0

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        count &+= bytes.count
    }

    mutating func flush() throws {}
}

/// A file to write output into: made in `TMPDIR` and unlinked at once, so that nothing is left
/// behind and its pages are dropped, never synced, when it is closed.
enum ScratchFile {
    static func withSink(_ body: (FileDescriptorSink) throws -> Int) throws -> Int {
        var template = Array((TemporaryFiles.folder + "/cuekit-benchmark-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        precondition(descriptor >= 0, "cannot make a file in \(TemporaryFiles.folder)")
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        defer { close(descriptor) }
        return try body(FileDescriptorSink(descriptor: descriptor, path: "<benchmark output>"))
    }
}
