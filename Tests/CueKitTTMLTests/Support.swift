import CueKit
import CueKitTTML

/// Builds small TTML documents for tests.
enum TTMLDocument {
    static let namespaces = """
        xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" \
        xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xmlns:ttm="http://www.w3.org/ns/ttml#metadata"
        """

    /// A document with `head` and `body` content and extra attributes on `tt`.
    static func make(head: String = "", body: String, parameters: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt \(namespaces) xml:lang="en" \(parameters)>
        <head>\(head)</head>
        <body>\(body)</body>
        </tt>
        """
    }

    /// Reads a document in two passes (as files are read).
    static func read(_ text: String, options: TTMLReader.Options = TTMLReader.Options()) throws -> ReadResult {
        try TTMLReader.read(text, options: options)
    }

    /// The cues as `start-end text` lines, for one readable assertion.
    static func cueLines(_ result: ReadResult) -> [String] {
        result.track.cues.map { "\(CueTimestamp.format($0.start))-\(CueTimestamp.format($0.end)) \($0.text)" }
    }

    /// The error a document is refused with.
    static func error(_ text: String) -> ReadError? {
        do {
            _ = try read(text)
            return nil
        } catch let error as ReadError {
            return error
        } catch {
            return nil
        }
    }
}
