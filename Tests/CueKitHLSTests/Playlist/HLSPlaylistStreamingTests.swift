import CueKit
import CueKitConversion
import CueKitTestSupport
import Testing

/// A media playlist read from its file is read line by line, twice, keeping none of its
/// segments (`HLSPlaylistReader.stream(maximumBytes:to:)`): it must read as the same playlist held
/// in memory, its problems as a plain reading of every segment finds them, and a playlist that
/// cannot be read must be refused before anything is handed on.
@Suite struct HLSPlaylistStreamingTests {
    /// A random playlist over `segments` files, some listed as byte ranges of one file, with
    /// comments, blank lines, CR LF line ends and `EXT-X-TARGETDURATION` anywhere (first, after
    /// some segments, twice, or missing).
    static func randomPlaylist(_ random: inout SeededRandom, in directory: TemporaryDirectory) -> String {
        let newline = Int.random(in: 0..<3, using: &random) == 0 ? "\r\n" : "\n"
        let count = 1 + Int.random(in: 0..<40, using: &random)
        var lines = ["#EXTM3U"]
        let targetAt = Int.random(in: 0..<4, using: &random) == 0 ? -1 : Int.random(in: 0..<(count + 1), using: &random)
        let secondTargetAt = Int.random(in: 0..<5, using: &random) == 0 ? Int.random(in: 0..<(count + 1), using: &random) : -1
        var oneFile: [UInt8] = []
        var time = 0
        for index in 0..<count {
            if index == targetAt { lines.append("#EXT-X-TARGETDURATION:\(3 + Int.random(in: 0..<5, using: &random))") }
            if index == secondTargetAt { lines.append("#EXT-X-TARGETDURATION:\(3 + Int.random(in: 0..<5, using: &random))") }
            if Int.random(in: 0..<6, using: &random) == 0 { lines.append("# a comment") }
            if Int.random(in: 0..<8, using: &random) == 0 { lines.append("") }
            let duration = 1_000 + Int.random(in: 0..<(7_000), using: &random)
            let cue = "\(CueTimestamp.format(time + 100)) --> \(CueTimestamp.format(time + duration / 2))\ncue \(index)\n"
            let text = "WEBVTT\n\n" + cue
            lines.append("#EXTINF:\(Double(duration) / 1000),")
            if Int.random(in: 0..<2, using: &random) == 0 {
                lines.append("#EXT-X-BYTERANGE:\(text.utf8.count)@\(oneFile.count)")
                lines.append("ranges.vtt")
                oneFile += text.utf8
            } else {
                directory.write(text, to: "\(index).vtt")
                lines.append("\(index).vtt")
            }
            time += duration
        }
        if targetAt == count { lines.append("#EXT-X-TARGETDURATION:\(3 + Int.random(in: 0..<5, using: &random))") }
        if Int.random(in: 0..<3, using: &random) > 0 { lines.append("#EXT-X-ENDLIST") }
        directory.write(String(decoding: oneFile, as: UTF8.self), to: "ranges.vtt")
        return lines.joined(separator: newline) + (Int.random(in: 0..<2, using: &random) == 0 ? newline : "")
    }

    /// The playlist's own problems as a reading that keeps every segment finds them: each
    /// `EXTINF` that rounds above the playlist's last `EXT-X-TARGETDURATION`, in order, at most 100.
    static func overTargetLines(_ text: String) throws -> [Int] {
        guard case .media(let media) = try HLSPlaylist.parse(text), let target = media.targetDuration else { return [] }
        return media.segments.filter { ($0.duration + 500) / 1000 > target }.prefix(100).map(\.durationLine)
    }

    @Test func aPlaylistReadFromItsFileReadsAsTheSamePlaylistInMemory() throws {
        var random = SeededRandom(seed: 42)
        var overTargetSeen = 0
        for _ in 0..<60 {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let text = Self.randomPlaylist(&random, in: directory)
            directory.write(text, to: "subs.m3u8")
            let reader = HLSPlaylistReader(path: directory.file("subs.m3u8"), options: .init())
            var fromFile: [TrackEvent] = []
            try reader.stream(maximumBytes: 1 << 20) { fromFile.append($0) }
            var fromText: [TrackEvent] = []
            try reader.stream(text: text) { fromText.append($0) }
            #expect(fromFile == fromText, "\(text)")
            let cues = fromFile.filter { if case .cue = $0 { true } else { false } }
            #expect(cues.count == text.components(separatedBy: "#EXTINF").count - 1)
            let reported = fromFile.compactMap { event -> Int? in
                guard case .diagnostic(let diagnostic) = event, diagnostic.code == .hlsExtinfOverTarget else { return nil }
                return diagnostic.location?.line
            }
            #expect(reported == (try Self.overTargetLines(text)), "\(text)")
            overTargetSeen += reported.count
        }
        // The random playlists do reach the rule.
        #expect(overTargetSeen > 10)
    }

    @Test func aTargetDurationAfterTheSegmentsJudgesThemAll() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("WEBVTT\n", to: "0.vtt")
        directory.write("WEBVTT\n", to: "1.vtt")
        directory.write("#EXTM3U\n#EXTINF:9,\n0.vtt\n#EXTINF:4,\n1.vtt\n#EXT-X-TARGETDURATION:6\n#EXT-X-ENDLIST\n", to: "subs.m3u8")
        var found: [Diagnostic] = []
        try HLSPlaylistReader(path: directory.file("subs.m3u8"), options: .init()).stream(maximumBytes: 1 << 20) { event in
            if case .diagnostic(let diagnostic) = event { found.append(diagnostic) }
        }
        #expect(found.map(\.code) == [.hlsExtinfOverTarget])
        #expect(found.first?.location == SourceLocation(line: 2, column: 9))
    }

    @Test func aPlaylistMalformedAfterItsFirstSegmentsIsRefusedBeforeAnyEvent() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("WEBVTT\n\n00:00.000 --> 00:01.000\nfirst\n", to: "0.vtt")
        directory.write("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n0.vtt\n#EXTINF:six,\n1.vtt\n", to: "subs.m3u8")
        var handed = 0
        let error = #expect(throws: ReadError.self) {
            try HLSPlaylistReader(path: directory.file("subs.m3u8"), options: .init()).stream(maximumBytes: 1 << 20) { _ in handed += 1 }
        }
        #expect(error?.diagnostic.location == SourceLocation(line: 5, column: 9))
        #expect(handed == 0)
    }

    @Test func aPlaylistOverItsLimitOrWithAnEndlessLineIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n0.vtt\n"
        directory.write(playlist, to: "subs.m3u8")
        let reader = HLSPlaylistReader(path: directory.file("subs.m3u8"), options: .init())
        let overLimit = #expect(throws: ReadError.self) { try reader.stream(maximumBytes: playlist.utf8.count - 1) { _ in } }
        #expect(overLimit?.diagnostic.message.contains("longer than") == true)

        directory.write("#EXTM3U\n# " + String(repeating: "x", count: 1 << 20) + "\n", to: "long.m3u8")
        let long = #expect(throws: ReadError.self) {
            try HLSPlaylistReader(path: directory.file("long.m3u8"), options: .init()).stream(maximumBytes: 4 << 20) { _ in }
        }
        #expect(long?.diagnostic.code == .hlsPlaylistMalformed)
        #expect(long?.diagnostic.location?.line == 2)
    }
}

/// `EXTINF` durations are read in one pass when they are plain decimals: each must come out as
/// the `Double` reading of the number gives it, and anything else must be read as before.
@Suite struct HLSExtinfDurationTests {
    static func duration(_ number: String) -> Int? {
        guard case .media(let media) = try? HLSPlaylist.parse("#EXTM3U\n#EXTINF:\(number),\n0.vtt\n") else { return nil }
        return media.segments.first?.duration
    }

    /// The `Double` reading, nil past the longest segment a playlist may list.
    static func reference(_ number: String) -> Int? {
        guard let seconds = Double(number), seconds >= 0, seconds * 1000 <= Double(HLSPlaylist.maximumSegmentDuration) else { return nil }
        return Int((seconds * 1000).rounded())
    }

    @Test func aDurationReadsAsItsDoubleReading() {
        var random = SeededRandom(seed: 608)
        let alphabet = Array("0123456789.0123456789e-+ x")
        var plain = 0
        for round in 0..<20_000 {
            let number: String
            if round % 2 == 0 {
                // Plain decimals: up to 7 digits before the point and 5 after.
                let whole = String((0..<Int.random(in: 0...7, using: &random)).map { _ in "0123456789".randomElement(using: &random)! })
                let fraction = String((0..<Int.random(in: 0...5, using: &random)).map { _ in "0123456789".randomElement(using: &random)! })
                number = Int.random(in: 0..<4, using: &random) == 0 ? whole : whole + "." + fraction
                if Self.reference(number) != nil { plain += 1 }
            } else {
                number = String((0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            }
            #expect(Self.duration(number) == Self.reference(number), "EXTINF:\(number)")
        }
        // Most plain decimals are numbers (not "", "." or "."-led with no digits).
        #expect(plain > 8_000)
        #expect(Self.duration("6.006") == 6_006)
        #expect(Self.duration("0.0005") == 1)
        // Past the longest segment, however it is spelled: a located error, not a crash.
        for number in ["1000000.001", "1e300", "99999999999999999999", "1e18"] {
            let error = #expect(throws: ReadError.self) { try HLSPlaylist.parse("#EXTM3U\n#EXTINF:\(number),\n0.vtt\n") }
            #expect(error?.diagnostic.location == SourceLocation(line: 2, column: 9))
        }
    }
}
