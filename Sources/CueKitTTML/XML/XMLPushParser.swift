internal import CCueKitLibXML2
import CueKit

/// libxml2's SAX2 push parser, and the only code in CueKit that calls libxml2.
///
/// Bytes go in through ``feed(_:)`` and ``finish()``; each SAX callback becomes an ``XMLEvent`` at
/// once, collected in ``events`` for the caller to take after every call. No libxml2 type or
/// pointer leaves this file, and all libxml2 memory is freed in `deinit`.
///
/// Safe by construction (the rules of STYLE.md and of libxml2's own security notes):
/// - options: `XML_PARSE_NONET` (nothing is fetched from a network), `XML_PARSE_NOCDATA` (CDATA
///   comes as text); never `XML_PARSE_NOENT` (entity substitution, the switch that enables XXE),
///   `XML_PARSE_DTDLOAD` or `XML_PARSE_HUGE` (so libxml2's own limits on depth and text size hold);
/// - a document type declaration is refused from the `internalSubset` callback, before its
///   internal subset (where entities would be declared) is read, and the parser is stopped: no
///   entity can be declared, so no entity bomb can expand and no external entity can be resolved;
/// - no external entity loader, no `getEntity`/`resolveEntity` handler: a reference to an entity
///   other than XML's five predefined ones is a well-formedness error;
/// - no global state is touched: the error callback is the SAX handler's structured `serror`,
///   never `xmlSetStructuredErrorFunc`.
///
/// libxml2's default SAX2 handlers expect the parser context as their user data, so the context is
/// created with no user data and this object is kept in the context's `_private` field.
final class XMLPushParser {
    // Unchecked exclusivity: the parser is used by one reader on one thread, and the callbacks touch
    // these for every element; dynamic checks would cost more than the work.

    /// Events found since the caller last took them.
    let events = XMLEventQueue()
    /// Why the document was refused, once it is; nothing is parsed after that.
    private(set) var refusal: XMLRefusal?
    /// Elements open now, and whether the root element has ended.
    private var depth = 0
    private var rootClosed = false

    private var context: xmlParserCtxtPtr?
    /// Bytes held back until there are enough to tell the encoding (libxml2 needs four for a
    /// UTF-16 byte order mark or an `<?xml` declaration in UTF-16).
    private var pending: [UInt8] = []
    private var sawInput = false
    private var finished = false
    /// Names come from libxml2's dictionary, where one string has one address for the life of the
    /// context: each is decoded once, and numbered in the order first seen.
    @exclusivity(unchecked) private var names: [UnsafeRawPointer: Int] = [:]
    /// The names' strings, by number: what every ``XMLName`` the parser hands out reads.
    let nameTable = XMLNameTable()

    private static let initialChunkSize = 4

    /// Decides, once per namespace, whether an element's attributes are wanted when it has an
    /// attribute in that namespace; nil to hand out every attribute of every element.
    private let wantsAttributes: ((String) -> Bool)?
    /// Element local names whose attributes are always wanted in that mode.
    private let alwaysWanted: Set<String>
    @exclusivity(unchecked) private var wantedByNamespace: [Int: Bool] = [:]
    /// Hand out text: off for readers that only look at tags.
    private let wantsText: Bool

    /// A parser handing out every event.
    init() {
        wantsAttributes = nil
        alwaysWanted = []
        wantsText = true
    }

    /// A parser for a reader that only looks at some attributes: an element's attributes are
    /// handed out when one of them is in a namespace `wantsAttributes` accepts, or when the
    /// element's local name is in `alwaysWanted`; text is not handed out. Cheaper for a first pass
    /// over a large document.
    init(wantsAttributes: @escaping (String) -> Bool, alwaysWanted: Set<String>) {
        self.wantsAttributes = wantsAttributes
        self.alwaysWanted = alwaysWanted
        wantsText = false
    }

    deinit {
        guard let context else { return }
        if let document = context.pointee.myDoc {
            xmlFreeDoc(document)
            context.pointee.myDoc = nil
        }
        xmlFreeParserCtxt(context)
    }

    /// Parses the next bytes. Events land in ``events``; a fatal problem sets ``refusal``.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard refusal == nil, !finished, !bytes.isEmpty else { return }
        if let excess = attributeCounter.scan(bytes) {
            // What comes before the element is still read; the element is not.
            if let offset = excess.offsetInChunk, offset > 0 { feedChecked(UnsafeRawBufferPointer(rebasing: bytes[..<offset])) }
            if refusal == nil { refusal = .tooManyAttributes(limit: attributeCounter.limit, location: excess.location) }
            return
        }
        feedChecked(bytes)
    }

    /// The most attributes one element may have (``XMLAttributeCounter``); set before the first
    /// bytes.
    var maximumAttributesPerElement: Int {
        get { attributeCounter.limit }
        set { attributeCounter = XMLAttributeCounter(limit: newValue) }
    }
    private var attributeCounter = XMLAttributeCounter(limit: 1000)

    private func feedChecked(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        sawInput = true
        if context == nil {
            pending.append(contentsOf: bytes)
            if pending.count >= Self.initialChunkSize { start(terminate: false) }
            return
        }
        parse(bytes, terminate: false)
    }

    /// Marks the end of input: the parser checks that the document is complete.
    func finish() {
        guard refusal == nil, !finished else { return }
        finished = true
        guard sawInput else {
            refusal = .empty
            return
        }
        if context == nil {
            start(terminate: true)
        } else {
            parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        }
    }

    // MARK: Driving libxml2

    private func start(terminate: Bool) {
        if pending.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || pending.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            // libxml2 reads no UTF-32, and says only "Document is empty".
            refusal = .notWellFormed(
                message: "the document is UTF-32 (its byte order mark says so), which the XML parser does not read: convert it to UTF-8 (iconv -f UTF-32 -t UTF-8)",
                location: .start)
            pending = []
            return
        }
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, _, uri, _, _, attributeCount, _, attributes in
            XMLPushParser.from(context)?.startElement(localName, uri, Int(attributeCount), attributes)
        }
        handler.endElementNs = { context, _, _, _ in
            XMLPushParser.from(context)?.endElement()
        }
        handler.characters = { context, characters, length in
            XMLPushParser.from(context)?.text(characters, Int(length))
        }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = handler.characters
        handler.internalSubset = { context, _, _, _ in
            XMLPushParser.from(context)?.refuseDocumentType()
        }
        handler.serror = { context, error in
            XMLPushParser.from(context)?.report(error)
        }
        let created: xmlParserCtxtPtr? = pending.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                let saved = cuekit_xml_silence_generic_errors()
                defer { cuekit_xml_restore_generic_errors(saved) }
                return xmlCreatePushParserCtxt(&handler, nil, chars.baseAddress, Int32(chars.count), nil)
            }
        }
        pending = []
        guard let created else {
            refusal = .notWellFormed(message: "the XML parser could not be created", location: .start)
            return
        }
        context = created
        created.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        let options = Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOCDATA.rawValue)
        xmlCtxtUseOptions(created, options)
        if terminate {
            parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        }
    }

    private func parse(_ bytes: UnsafeRawBufferPointer, terminate: Bool) {
        guard let context else { return }
        var offset = 0
        // xmlParseChunk takes an Int32 length: feed very large chunks in pieces.
        repeat {
            let count = min(bytes.count - offset, 1 << 30)
            let base = bytes.baseAddress.map { $0.advanced(by: offset).assumingMemoryBound(to: CChar.self) }
            let last = terminate && offset + count == bytes.count
            let saved = cuekit_xml_silence_generic_errors()
            xmlParseChunk(context, base, Int32(count), last ? 1 : 0)
            cuekit_xml_restore_generic_errors(saved)
            offset += count
        } while offset < bytes.count && refusal == nil
        if refusal == nil, haltedSilently {
            refusal = Self.encodingFailure(at: currentLocation)
        } else if refusal == nil, context.pointee.wellFormed == 0, terminate {
            // A fatal error that did not reach the error callback (should not happen).
            refusal = .notWellFormed(message: "the document is not well-formed XML", location: currentLocation)
        }
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> XMLPushParser? {
        guard let context else { return nil }
        let parserContext = context.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let object = parserContext.pointee._private else { return nil }
        return Unmanaged<XMLPushParser>.fromOpaque(object).takeUnretainedValue()
    }

    /// Where libxml2 is in the input: the line and column just after what it last read.
    private var currentLocation: SourceLocation {
        guard let input = context?.pointee.input else { return .start }
        return SourceLocation(line: max(1, Int(input.pointee.line)), column: max(1, Int(input.pointee.col)))
    }

    /// True when libxml2 stopped without telling the error callback: an encoding conversion
    /// failure (bytes that are not in the document's encoding), which it reports only to the
    /// generic handler. A fatal error stops it too, but sets `disableSAX` only after its callback.
    /// At the end of input, bytes the encoder could not convert left unread say the same.
    private var haltedSilently: Bool {
        guard let context else { return false }
        if context.pointee.disableSAX != 0 && context.pointee.instate == XML_PARSER_EOF { return true }
        guard finished, let buffer = context.pointee.input?.pointee.buf, buffer.pointee.encoder != nil, let raw = buffer.pointee.raw else {
            return false
        }
        return xmlBufUse(raw) > 0
    }

    private static func encodingFailure(at location: SourceLocation) -> XMLRefusal {
        .notWellFormed(
            message: "bytes that cannot be read in the document's encoding (declared, or told from its first bytes; CueKit reads UTF-8, UTF-16 and the encodings libxml2 converts): reading stops here",
            location: location)
    }

    // MARK: Callbacks

    private func startElement(
        _ localName: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ attributeCount: Int,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard refusal == nil else { return }
        depth += 1
        let name = qualifiedName(uri, localName)
        if attributeCount > 0, let attributes, wanted(name, attributeCount, attributes) {
            for index in 0..<attributeCount {
                // Five pointers per attribute: local name, prefix, URI, value start, value end.
                let base = attributes + index * 5
                let attributeName = qualifiedName(base[2], base[0])
                var value = ""
                if let start = base[3], let end = base[4] {
                    value = Self.attributeValue(UnsafeBufferPointer(start: start, count: end - start))
                }
                events.appendAttribute(XMLAttribute(name: attributeName, value: value))
            }
        }
        events.appendStart(name: name, location: currentLocation)
    }

    /// True when the element's attributes are handed out.
    private func wanted(_ name: XMLName, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>) -> Bool {
        guard let wantsAttributes else { return true }
        if alwaysWanted.contains(name.local) { return true }
        for index in 0..<count {
            let namespaceIndex = interned(attributes[index * 5 + 2])
            if namespaceIndex == 0 { continue }
            if let known = wantedByNamespace[namespaceIndex] {
                if known { return true }
                continue
            }
            let decision = wantsAttributes(nameTable[namespaceIndex])
            wantedByNamespace[namespaceIndex] = decision
            if decision { return true }
        }
        return false
    }

    private func endElement() {
        guard refusal == nil else { return }
        depth -= 1
        if depth == 0 { rootClosed = true }
        events.append(.end(location: currentLocation))
    }

    private func text(_ characters: UnsafePointer<xmlChar>?, _ length: Int) {
        guard refusal == nil, wantsText, let characters, length > 0 else { return }
        events.appendText(UnsafeBufferPointer(start: characters, count: length))
    }

    private func refuseDocumentType() {
        guard refusal == nil else { return }
        refusal = .documentTypeDeclaration(location: currentLocation)
        if let context { xmlStopParser(context) }
    }

    private func report(_ error: xmlErrorPtr?) {
        guard refusal == nil, let error else { return }
        let message = Self.message(of: error)
        var location = currentLocation
        if error.pointee.line > 0 {
            location = SourceLocation(line: Int(error.pointee.line), column: max(1, Int(error.pointee.int2)))
            // libxml2 notices an undeclared entity after its `;`: point at its `&` instead.
            let code = error.pointee.code
            if code == Int32(XML_ERR_UNDECLARED_ENTITY.rawValue) || code == Int32(XML_WAR_UNDECLARED_ENTITY.rawValue),
                let name = error.pointee.str1
            {
                let reference = String(cString: name).unicodeScalars.count + 2
                if location.column > reference { location = SourceLocation(line: location.line, column: location.column - reference) }
            }
        }
        if haltedSilently {
            // What follows an encoding failure (libxml2's "extra content" at the end) is not the
            // problem: the bytes it could not convert are.
            refusal = Self.encodingFailure(at: currentLocation)
            return
        }
        switch error.pointee.level {
        case XML_ERR_FATAL:
            if finished, error.pointee.code == Int32(XML_ERR_DOCUMENT_END.rawValue), rootClosed {
                refusal = .notWellFormed(
                    message: "there is content after the end of the root element (a document has exactly one root element)", location: location)
            } else if finished, error.pointee.code == Int32(XML_ERR_DOCUMENT_END.rawValue) {
                // libxml2 names the end of input inside an element "extra content".
                refusal = .notWellFormed(
                    message: "the input ends before the root element is closed (a truncated file, or a missing end tag)", location: location)
            } else {
                refusal = .notWellFormed(message: message, location: location)
            }
        case XML_ERR_ERROR:
            events.append(.problem(.error, message: message, location: location))
        default:
            events.append(.problem(.warning, message: message, location: location))
        }
    }

    // MARK: Conversions

    private func qualifiedName(_ uri: UnsafePointer<xmlChar>?, _ localName: UnsafePointer<xmlChar>?) -> XMLName {
        XMLName(namespaceIndex: interned(uri), localIndex: interned(localName), in: nameTable)
    }

    /// The number of the string at a dictionary address in ``nameTable``; equal strings get equal
    /// numbers even when libxml2 holds them at different addresses. A small direct-mapped cache in front of the
    /// table answers the few names a document repeats without hashing.
    @inline(__always)
    private func interned(_ pointer: UnsafePointer<xmlChar>?) -> Int {
        guard let pointer else { return 0 }
        let key = UnsafeRawPointer(pointer)
        // Fibonacci hashing: the dictionary packs its strings a few bytes apart, so the address's
        // low bits alone put neighbours in the same slot.
        let slot = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> (64 - Self.cacheBits))
        if recentKeys[slot] == key { return recentNames[slot] }
        return internedMissingRecent(key, slot)
    }

    /// ``interned(_:)`` for an address not in the recent-name cache (kept out of line, so that
    /// the cache's hit is inlined where names are made).
    @inline(never)
    private func internedMissingRecent(_ key: UnsafeRawPointer, _ slot: Int) -> Int {
        let result: Int
        if let known = names[key] {
            result = known
        } else {
            result = nameTable.index(of: Self.shared(String(cString: key.assumingMemoryBound(to: xmlChar.self))))
            names[key] = result
        }
        recentKeys[slot] = key
        recentNames[slot] = result
        return result
    }

    /// The namespaces TTML documents use, as the literals the reader's constants are: a string
    /// literal is never reference counted, where a name made from the document's bytes (a URI,
    /// longer than a string holds inline) was retained and released each time an event, an
    /// attribute or a lookup copied it, some 15 times a cue.
    private static let literalNames: [String] = [
        TTML.namespace, TTML.stylingNamespace, TTML.parameterNamespace, TTML.metadataNamespace, TTML.xmlNamespace,
        TTML.imscStylingNamespace, TTML.smpteNamespace, TTML.ebuStylingNamespace, TTML.dfxp2006October, TTML.dfxp2006April,
    ]

    /// `name`, or the literal equal to it.
    private static func shared(_ name: String) -> String {
        literalNames.first { $0 == name } ?? name
    }

    private static let cacheBits = 8
    private static let cacheSize = 1 << cacheBits
    @exclusivity(unchecked) private var recentKeys = [UnsafeRawPointer?](repeating: nil, count: XMLPushParser.cacheSize)
    @exclusivity(unchecked) private var recentNames = [Int](repeating: 0, count: XMLPushParser.cacheSize)

    /// The attribute value as text. Without entity substitution libxml2 hands out an escaped
    /// ampersand (`&amp;` or `&#38;`) as the five characters `&#38;`, to be reparsed by a tree
    /// builder (a literal `&` cannot occur in a well-formed value): they are turned back into `&`.
    private static func attributeValue(_ bytes: UnsafeBufferPointer<xmlChar>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return string(bytes) }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        let escaped = Array("&#38;".utf8)
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), index + escaped.count <= bytes.count,
                bytes[index..<(index + escaped.count)].elementsEqual(escaped)
            {
                result.append(UInt8(ascii: "&"))
                index += escaped.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The bytes (valid UTF-8, as libxml2 hands out) as a string. A value that fits in a string
    /// held inline (15 bytes; most values: times, names, a region) is written in place, which
    /// costs about half of `String(decoding:as:)`'s general path; a longer one takes that path,
    /// which is the cheaper for it.
    private static func string(_ bytes: UnsafeBufferPointer<xmlChar>) -> String {
        guard bytes.count <= 15 else { return String(decoding: bytes, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: bytes.count) { $0.initialize(fromContentsOf: bytes) }
    }

    private static func message(of error: xmlErrorPtr) -> String {
        guard let text = error.pointee.message else { return "the document is not well-formed XML" }
        var message = String(cString: text)
        while let last = message.last, last == "\n" || last == " " { message.removeLast() }
        // Some messages have a second line (the bytes that are not UTF-8): one line for diagnostics.
        var line = ""
        for character in message {
            if character == "\n" {
                while line.last == " " || line.last == "!" { line.removeLast() }
                line += "; "
            } else {
                line.append(character)
            }
        }
        return line
    }
}
