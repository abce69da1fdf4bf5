import CueKit

extension TTMLReader {
    /// The language a document declares for itself: the `xml:lang` of its root element (TTML1
    /// section 7.1.1), found by namespace; nil when the root has none or an empty one, or the file
    /// is not XML. Throws a ``ReadError`` when the file cannot be read.
    ///
    /// Reads no further than the root's start tag, so that a caller (caption QC picking its
    /// per-language rules) can ask before reading the document.
    public static func rootLanguage(fileAtPath path: String) throws -> String? {
        struct RootFound: Error { var language: String? }
        let parser = XMLPushParser()
        do {
            try FileByteSource(path: path, chunkSize: 4096).forEachChunk { chunk in
                parser.feed(chunk)
                if let root = rootStart(parser) { throw RootFound(language: root) }
                if parser.refusal != nil { throw RootFound(language: nil) }
            }
            parser.finish()
            return rootStart(parser) ?? nil
        } catch let found as RootFound {
            return found.language
        }
    }

    /// Once the root's start tag is parsed, its non-empty `xml:lang` or nil (`.some(nil)`); nil
    /// before.
    private static func rootStart(_ parser: XMLPushParser) -> String?? {
        var root: String??
        parser.events.drain { event in
            guard root == nil, case .start(_, let attributes, _) = event else { return }
            let value = attributes.first { $0.name.local == "lang" && $0.name.namespace == TTML.xmlNamespace }?.value
            root = .some(value?.isEmpty == false ? value : nil)
        }
        return root
    }
}
