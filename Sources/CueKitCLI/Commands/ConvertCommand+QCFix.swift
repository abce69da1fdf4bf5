import CueKit
import CueKitCommandSupport
import CueKitConversion
import CueKitQC
import CueKitWebVTT

#if canImport(Glibc)
    import Glibc
#endif

extension ConvertCommand {
    /// `--qc-fix NAME`: reads the input whole, makes the profile's mechanical fixes, reports each
    /// change on standard error (`file: cue N: message [code]`), and writes the fixed track to a
    /// temporary WebVTT file that the conversion then reads (quietly: the input's own diagnostics
    /// were printed here, under its name). Returns that file's path; the caller removes it.
    func fixForQC(input: String, profileName: String, settings: inout ConversionSettings) throws -> String {
        let name = input == "-" ? "<stdin>" : input
        let profile: QCProfile
        do {
            profile = try QCProfile.builtIn(named: profileName)
        } catch {
            throw CommandFailure("--qc-fix: \(error)")
        }
        var source = try TrackSource.open(input, format: from?.format, limits: limits)
        source.options.ttml.unregionedContent = unregioned.content
        var collector = TrackCollector()
        do {
            try source.streamForCommand { collector.collect($0) }
        } catch let error as ReadError {
            if error.diagnostic.code == IOFailure.readCode { throw CommandFailure(error.diagnostic.message, status: .usageOrIOError) }
            throw CommandFailure(located: error.inFile(name).description, status: .invalidInput)
        }
        let result = collector.result
        if !quiet {
            for diagnostic in result.diagnostics { StandardError.write(diagnostic.formatted(file: name) + "\n") }
        }
        let ownLanguages = QCOptions.trackLanguages(of: source, file: input)
        let trackLanguage =
            language != "und"
            ? language : QCTrackCheck.language(inWebVTTHeader: result.track.header) ?? ownLanguages.declared ?? ownLanguages.named
        let fixer: QCFixer
        do {
            fixer = try QCFixer(rules: profile.rules(language: trackLanguage, audience: audience.audience), frameRate: qcFrameRate)
        } catch {
            throw CommandFailure("--qc-fix \(profileName): \(error)")
        }
        var track = result.track
        let (cues, changes) = fixer.fix(track.cues)
        track.cues = cues
        for change in changes { StandardError.write("\(name.escapingControlCharacters): qc-fix: \(change)\n") }
        StandardError.write(
            "\(name.escapingControlCharacters): qc-fix: \(ConversionJob.count(changes.count, "change")) (\(profile.name))\n")

        var writer = WebVTTWriter(to: MemorySink())
        try writer.write(track)
        var template = Array("\(TemporaryFiles.folder)/cuekit-qc-fix-XXXXXX.vtt".utf8CString)
        let descriptor = mkstemps(&template, 4)
        guard descriptor >= 0 else { throw CommandFailure("cannot make a temporary file in \(TemporaryFiles.folder)") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var sink = FileDescriptorSink(descriptor: descriptor, path: path)
        try sink.write(writer.sink.bytes)
        try sink.flush()
        close(descriptor)
        settings.inputFormat = .webVTT
        settings.quiet = true
        return path
    }
}
