extension TemporaryDirectory {
    /// Writes `segments` one after another into `file`, and the media playlist `playlist` naming
    /// each as a byte range of it (`EXT-X-BYTERANGE`, version 4): the first with its offset, the
    /// others without, each following on from the range before.
    public func writeByteRangeRendition(
        _ segments: [String], seconds: Int, file: String = "all.vtt", playlist: String = "subs.m3u8"
    ) {
        write(segments.joined(), to: file)
        var text = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:\(seconds)\n"
        for (index, segment) in segments.enumerated() {
            text += "#EXTINF:\(seconds),\n#EXT-X-BYTERANGE:\(segment.utf8.count)\(index == 0 ? "@0" : "")\n\(file)\n"
        }
        write(text + "#EXT-X-ENDLIST\n", to: playlist)
    }
}
