import CueKit
import CueKitWebVTT

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension TrackConversion {
    /// Converts the track as a WebVTT conversion would (every format read, the edits, the Cast style,
    /// cues in start-time order with late cues merged back) and hands the converted track's events
    /// to `consumer`, in the order a WebVTT file holds them: header, regions, style sheets, then cues
    /// in start-time order with their notes. No diagnostic event reaches the consumer: they go to
    /// `report`, as ``write(toFileAt:report:)`` reports them.
    ///
    /// For writers that are not one file (HLS segments): the conversion is written to a temporary
    /// WebVTT file, then read back, so memory stays bounded by the ordering window whatever the
    /// track's size. ``Options/format`` is ignored.
    @discardableResult
    public func stream<Consumer: TrackEventConsumer>(
        convertedInto consumer: inout Consumer, report: (ConversionDiagnostic) -> Void = { _ in }
    ) throws -> Outcome {
        var template = Array((TemporaryFiles.folder + "/cuekit-events-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw IOFailure.writing(TemporaryFiles.folder, errno: errno)
        }
        let folder = String(cString: made)
        let path = folder + "/converted.vtt"
        defer {
            unlink(path)
            rmdir(folder)
        }
        var webVTT = self
        webVTT.options.format = .webVTT
        let (outcome, output) = try webVTT.convert(firstPassPath: path, spillFolder: folder, firstPassIsOutput: true, report: report) {
            try AtomicFileSink(path: path)
        }
        try output?.commit()
        var readBack = TrackSource.Options()
        readBack.webVTTDiagnostics = .none
        let converted = try TrackSource(path: path, format: .webVTT, options: readBack)
        try converted.stream { event in
            if case .diagnostic = event { return }
            try consumer.take(event)
        }
        return outcome
    }
}
