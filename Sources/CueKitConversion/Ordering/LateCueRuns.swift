import CueKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cues that came too late for ``CueOrdering``'s window, kept in sorted runs with memory
/// bounded by one run: each full run is sorted and spilled to a temporary file (registered, so an
/// interrupted command removes it), and ``merged(_:)`` reads them all back in order, merging at most
/// ``fanIn`` runs at a time.
final class LateCueRuns {
    let runLength: Int
    let folder: String
    private var buffer: [CueHeap.Entry] = []
    private var files: [AtomicFileSink] = []
    private(set) var count = 0

    /// How many runs one merge reads at once (each holds a file open).
    static let fanIn = 64

    init(runLength: Int, folder: String) {
        self.runLength = runLength
        self.folder = folder
    }

    func add(_ cue: Cue, sequence: Int) throws {
        buffer.append(CueHeap.Entry(cue: cue, sequence: sequence))
        count += 1
        if buffer.count >= runLength { try spill() }
    }

    /// Sorts what is left in memory (it stays there as the last run).
    func finishWriting() throws {
        buffer.sort(by: CueHeap.Entry.precedes)
    }

    /// Every late cue, in order, one at a time. Runs beyond ``fanIn`` are first merged in groups
    /// into longer runs. The run files are removed when the runs are released.
    func merged() throws -> Merger {
        while files.count > Self.fanIn {
            var next: [AtomicFileSink] = []
            for start in stride(from: 0, to: files.count, by: Self.fanIn) {
                let group = Array(files[start..<min(start + Self.fanIn, files.count)])
                let output = try makeRunFile()
                var writer = CueRunWriter(sink: output)
                let merger = try Merger(readers: group.map { try CueRunReader(path: $0.temporaryPath!) }, memory: [])
                while let entry = try merger.next() { try writer.write(entry) }
                try writer.flush()
                for file in group { file.discard() }
                next.append(output)
            }
            files = next
        }
        let merger = try Merger(readers: files.map { try CueRunReader(path: $0.temporaryPath!) }, memory: buffer)
        buffer = []
        return merger
    }

    deinit {
        for file in files { file.discard() }
    }

    /// A k-way merge of sorted runs on disk and one sorted run in memory.
    final class Merger {
        private let readers: [CueRunReader]
        private var heads: [CueHeap.Entry?]
        private let memory: [CueHeap.Entry]
        private var memoryIndex = 0

        init(readers: [CueRunReader], memory: [CueHeap.Entry]) throws {
            self.readers = readers
            heads = try readers.map { try $0.next() }
            self.memory = memory
        }

        func next() throws -> CueHeap.Entry? {
            var best: Int?
            for (index, head) in heads.enumerated() {
                guard let head else { continue }
                if let current = best, let other = heads[current], !CueHeap.Entry.precedes(head, other) { continue }
                best = index
            }
            if memoryIndex < memory.count, best.map({ CueHeap.Entry.precedes(memory[memoryIndex], heads[$0]!) }) ?? true {
                memoryIndex += 1
                return memory[memoryIndex - 1]
            }
            guard let best, let entry = heads[best] else { return nil }
            heads[best] = try readers[best].next()
            return entry
        }
    }

    private func spill() throws {
        buffer.sort(by: CueHeap.Entry.precedes)
        let file = try makeRunFile()
        var writer = CueRunWriter(sink: file)
        for entry in buffer { try writer.write(entry) }
        try writer.flush()
        files.append(file)
        buffer.removeAll(keepingCapacity: true)
    }

    private func makeRunFile() throws -> AtomicFileSink {
        try AtomicFileSink(path: (folder.isEmpty ? "" : folder + "/") + "cuekit-late-cues")
    }
}

/// Writes cues as length-prefixed binary records: a run file's format, private to one process.
struct CueRunWriter {
    let sink: AtomicFileSink
    private var record: [UInt8] = []

    init(sink: AtomicFileSink) {
        self.sink = sink
    }

    mutating func write(_ entry: CueHeap.Entry) throws {
        record.removeAll(keepingCapacity: true)
        record.append(contentsOf: [0, 0, 0, 0])
        let cue = entry.cue
        append(entry.sequence)
        append(cue.start)
        append(cue.end)
        append(cue.id)
        append(cue.text)
        let settings = cue.settings
        record.append(UInt8(CueSettings.Vertical.allCases.firstIndex(of: settings.vertical)!))
        switch settings.line {
        case .auto: record.append(0)
        case .number(let value):
            record.append(1)
            append(value)
        case .percentage(let value):
            record.append(2)
            append(value)
        }
        record.append(UInt8(CueSettings.LineAlignment.allCases.firstIndex(of: settings.lineAlignment)!))
        switch settings.position {
        case .auto: record.append(0)
        case .percentage(let value):
            record.append(1)
            append(value)
        }
        record.append(UInt8(CueSettings.PositionAlignment.allCases.firstIndex(of: settings.positionAlignment)!))
        append(settings.size)
        record.append(UInt8(CueSettings.TextAlignment.allCases.firstIndex(of: settings.alignment)!))
        if let region = settings.region {
            record.append(1)
            append(region)
        } else {
            record.append(0)
        }
        let length = UInt32(record.count - 4)
        for byte in 0..<4 { record[byte] = UInt8(truncatingIfNeeded: length >> (8 * byte)) }
        try sink.write(record)
    }

    func flush() throws { try sink.flush() }

    private mutating func append(_ value: Int) {
        let bits = UInt64(bitPattern: Int64(value))
        for byte in 0..<8 { record.append(UInt8(truncatingIfNeeded: bits >> (8 * byte))) }
    }

    private mutating func append(_ value: Double) {
        append(Int(Int64(bitPattern: value.bitPattern)))
    }

    private mutating func append(_ text: String) {
        append(text.utf8.count)
        record.append(contentsOf: text.utf8)
    }
}

/// Reads back what ``CueRunWriter`` wrote, one cue at a time.
final class CueRunReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    private var ended = false

    init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw IOFailure.reading(path, errno: errno) }
    }

    deinit { close(descriptor) }

    func next() throws -> CueHeap.Entry? {
        guard try fill(4) else { return nil }
        var length = 0
        for byte in 0..<4 { length |= Int(buffer[position + byte]) << (8 * byte) }
        position += 4
        guard try fill(length) else { throw IOFailure.reading("a temporary run file", errno: EIO) }
        var cursor = position
        position += length
        return buffer.withUnsafeBufferPointer { bytes in
            func int() -> Int {
                var bits: UInt64 = 0
                for byte in 0..<8 { bits |= UInt64(bytes[cursor + byte]) << (8 * UInt64(byte)) }
                cursor += 8
                return Int(Int64(bitPattern: bits))
            }
            func double() -> Double { Double(bitPattern: UInt64(bitPattern: Int64(int()))) }
            func string() -> String {
                let count = int()
                defer { cursor += count }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[cursor..<(cursor + count)]), as: UTF8.self)
            }
            func byte() -> Int {
                defer { cursor += 1 }
                return Int(bytes[cursor])
            }
            let sequence = int()
            var cue = Cue(id: "", start: 0, end: 0, text: "")
            cue.start = int()
            cue.end = int()
            cue.id = string()
            cue.text = string()
            var settings = CueSettings()
            settings.vertical = CueSettings.Vertical.allCases[byte()]
            switch byte() {
            case 1: settings.line = .number(double())
            case 2: settings.line = .percentage(double())
            default: settings.line = .auto
            }
            settings.lineAlignment = CueSettings.LineAlignment.allCases[byte()]
            settings.position = byte() == 1 ? .percentage(double()) : .auto
            settings.positionAlignment = CueSettings.PositionAlignment.allCases[byte()]
            settings.size = double()
            settings.alignment = CueSettings.TextAlignment.allCases[byte()]
            if byte() == 1 { settings.region = string() }
            cue.settings = settings
            return CueHeap.Entry(cue: cue, sequence: sequence)
        }
    }

    /// Makes `count` bytes available from `position`; false at the end of the file.
    private func fill(_ count: Int) throws -> Bool {
        if buffer.count - position >= count { return true }
        buffer.removeSubrange(0..<position)
        position = 0
        var chunk = [UInt8](repeating: 0, count: max(64 * 1024, count))
        while buffer.count < count, !ended {
            let read = chunk.withUnsafeMutableBytes { bytes in systemRead(descriptor, bytes.baseAddress, bytes.count) }
            if read < 0 {
                if errno == EINTR { continue }
                throw IOFailure.reading("a temporary run file", errno: errno)
            }
            if read == 0 { ended = true }
            buffer.append(contentsOf: chunk[0..<read])
        }
        return buffer.count >= count
    }
}

/// `read(2)`, by a name no method shadows.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
