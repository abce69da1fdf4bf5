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
        try readingBackConverted(report: report) { converted in
            try converted.stream { event in
                if case .diagnostic = event { return }
                try consumer.take(event)
            }
        }
    }

    /// Converts the track as ``stream(convertedInto:report:)`` does, and reads it back as a
    /// ``TrackSource`` of WebVTT reads a file for a ``WebVTTBytesConsumer``: its cue blocks offered
    /// whole (the converted track is WebVTT, whatever the input), its diagnostics left out.
    @discardableResult
    package func stream<Consumer: WebVTTBytesConsumer>(
        convertedInto consumer: inout Consumer, report: (ConversionDiagnostic) -> Void = { _ in }
    ) throws -> Outcome {
        try readingBackConverted(report: report) { converted in
            try withUnsafeMutablePointer(to: &consumer) { consumer in
                var readBack = ReadBackConsumer(consumer: consumer)
                try converted.stream(into: &readBack)
            }
        }
    }

    /// Converts the track to WebVTT in a temporary file, and calls `readBack` with that file as a
    /// source, its diagnostics not reported (the conversion reported the input's). Where the
    /// conversion is the input's own bytes, the input is read back, and no copy made.
    private func readingBackConverted(report: (ConversionDiagnostic) -> Void, _ readBack: (TrackSource) throws -> Void) throws -> Outcome {
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
        let (outcome, output) = try webVTT.convert(
            firstPassPath: path, spillFolder: folder, firstPassIsOutput: true, copiesUnchangedInput: false, report: report
        ) {
            try AtomicFileSink(path: path)
        }
        try output?.commit()
        var options = TrackSource.Options()
        options.webVTTDiagnostics = .none
        try readBack(try TrackSource(path: outcome.isInputUnchanged ? source.path : path, format: .webVTT, options: options))
        return outcome
    }
}

/// Hands a converted track read back on to a consumer, with its cue blocks and without its
/// diagnostics, through a pointer valid for one ``TrackSource/stream(into:)`` call.
private struct ReadBackConsumer<Consumer: WebVTTBytesConsumer>: WebVTTBytesConsumer {
    let consumer: UnsafeMutablePointer<Consumer>

    var cueTextParseCache: CueTextParseCache? { consumer.pointee.cueTextParseCache }
    var seesCuesAsRead: Bool { consumer.pointee.seesCuesAsRead }
    var takesCues: Bool { consumer.pointee.takesCues }

    mutating func take(_ event: TrackEvent) throws {
        if case .diagnostic = event { return }
        try consumer.pointee.take(event)
    }

    mutating func see(_ cue: WebVTTCueAsRead) throws { try consumer.pointee.see(cue) }

    mutating func take(_ block: WebVTTCueBlockAsRead, settings: borrowing CueSettings) throws -> Bool {
        try consumer.pointee.take(block, settings: settings)
    }
}
