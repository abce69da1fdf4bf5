import CueKit
import CueKitCast
import CueKitWebVTT

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CaptionFileHints {
    /// What a caption file says about itself, for the tracks of a Cast message: its name, and for
    /// WebVTT its header (nothing more is read), for TTML its root's `xml:lang`. A file that cannot
    /// be read is a ``CommandFailure``.
    package static func read(_ path: String) throws -> CaptionFileHints {
        var hints = CaptionFileHints(fileName: path)
        guard access(path, R_OK) == 0 else {
            throw CommandFailure(IOFailure.reading(path, errno: errno).diagnostic.message)
        }
        if hints.contentType == "text/vtt" || hints.contentType == nil {
            struct HeaderRead: Error { var header: String }
            var reader = WebVTTReader()
            do {
                try reader.stream(fileAtPath: path) { event in
                    if case .header(let header) = event { throw HeaderRead(header: header) }
                }
            } catch let found as HeaderRead {
                hints = CaptionFileHints(fileName: path, webVTTHeader: found.header)
                hints.contentType = "text/vtt"
            } catch let error as ReadError where error.diagnostic.code.rawValue.hasPrefix("io-") {
                throw CommandFailure(error.diagnostic.message)
            } catch {
                // Not WebVTT: the name is all there is to go on.
            }
        } else if hints.contentType == "application/ttml+xml", hints.language == nil {
            hints.language = try ttmlLanguage(path)
        }
        return hints
    }

    /// The `xml:lang` of a TTML document's root, from its first 4 KiB.
    private static func ttmlLanguage(_ path: String) throws -> String? {
        struct Enough: Error {}
        var bytes: [UInt8] = []
        do {
            try FileByteSource(path: path, chunkSize: 4096).forEachChunk { chunk in
                bytes = Array(chunk)
                throw Enough()
            }
        } catch is Enough {
        } catch let error as ReadError {
            throw CommandFailure(error.diagnostic.message)
        }
        let marker = Array("xml:lang=".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) else { return nil }
        let rest = bytes[(start + marker.count)...]
        guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
    }
}
