import CueKit

/// An expanded XML name: a namespace and a local name, as Namespaces in XML 1.0 (section 2) defines
/// names. TTML identifies its vocabulary by namespace, never by prefix, so no prefix is kept.
///
/// A name is two numbers into its parse's ``XMLNameTable``: it is copied and dropped, with every
/// event and attribute, without reference counting, and its strings are read from the table
/// when asked for. A name is valid while its table is (a parser's, which outlives the events it
/// hands out).
struct XMLName: Hashable {
    /// A number that stands for ``namespace`` within one parse: equal namespaces have equal
    /// numbers, so that readers can classify a namespace once and look the result up by number.
    var namespaceIndex: Int
    /// A number that stands for ``local`` within one parse, like ``namespaceIndex``.
    var localIndex: Int
    /// The table the numbers index.
    private unowned(unsafe) let table: XMLNameTable

    /// The name with these numbers in `table`.
    init(namespaceIndex: Int, localIndex: Int, in table: XMLNameTable) {
        self.namespaceIndex = namespaceIndex
        self.localIndex = localIndex
        self.table = table
    }

    /// The name of these strings, numbered in `table` (which numbers them if they are new).
    init(namespace: String, local: String, in table: XMLNameTable) {
        self.init(namespaceIndex: table.index(of: namespace), localIndex: table.index(of: local), in: table)
    }

    /// The namespace name (a URI); empty for a name in no namespace.
    var namespace: String { table[namespaceIndex] }
    /// The local part.
    var local: String { table[localIndex] }

    /// Equal numbers: equal strings (within one parse, which is where names are compared).
    static func == (lhs: XMLName, rhs: XMLName) -> Bool {
        lhs.namespaceIndex == rhs.namespaceIndex && lhs.localIndex == rhs.localIndex
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(namespaceIndex)
        hasher.combine(localIndex)
    }
}

/// The distinct names of one parse, numbered in the order first met: `""` is 0.
final class XMLNameTable {
    @exclusivity(unchecked) private var strings: [String] = [""]
    @exclusivity(unchecked) private var indexByString: [String: Int] = ["": 0]

    /// The number of `string`, which it is given when new.
    func index(of string: String) -> Int {
        if let known = indexByString[string] { return known }
        let index = strings.count
        strings.append(string)
        indexByString[string] = index
        return index
    }

    /// The string numbered `index`.
    subscript(index: Int) -> String { strings[index] }
}

/// One attribute of a start tag, its value already normalised as XML 1.0 (section 3.3.3) says.
struct XMLAttribute {
    /// The attribute's expanded name. Unprefixed attributes are in no namespace.
    var name: XMLName
    /// The normalised value, with character and predefined entity references replaced.
    var value: String
}

/// What the XML parser found, in document order, as Swift values: the only shape in which XML
/// reaches the TTML reader.
enum XMLEvent {
    /// A start tag (or an empty-element tag, which is followed at once by its ``end``).
    case start(name: XMLName, attributes: XMLAttributes, location: SourceLocation)
    /// An end tag. Its name is not handed out: no reader needs it (libxml2 has matched it with
    /// its start tag), and making it cost two name look-ups and a copy for every element.
    case end(location: SourceLocation)
    /// Character data, CDATA sections included: the pieces libxml2 hands out for one run of text
    /// come as one event, unless something else (a problem) comes between them.
    case text(XMLText)
    /// A recoverable problem the parser reported (a namespace error, a warning): the document is
    /// still read.
    case problem(Diagnostic.Severity, message: String, location: SourceLocation)
}

/// The attributes of a start tag as the parser hands them out: a borrowed view of attributes the
/// event queue holds, valid only while the event is being read (inside ``XMLEventQueue/drain(_:)``),
/// never kept. The queue keeps the attributes of a chunk's start tags in one buffer, emptied and
/// filled again, where an array made for each element cost an allocation and a release of each; a
/// reader that keeps what an element says keeps its ``TTMLElementAttributes``.
struct XMLAttributes: RandomAccessCollection {
    /// The queue that holds them, and where they are in its attributes.
    private unowned(unsafe) let queue: XMLEventQueue
    private let range: Range<Int>

    init(queue: XMLEventQueue, range: Range<Int>) {
        self.queue = queue
        self.range = range
    }

    var startIndex: Int { 0 }
    var endIndex: Int { range.count }
    subscript(position: Int) -> XMLAttribute {
        precondition(position >= 0 && position < range.count, "attribute index out of range")
        return queue.attributes[range.lowerBound + position]
    }
}

/// Character data as the parser hands it out: a borrowed view of bytes the event queue holds,
/// valid only while the event is being read (inside ``XMLEventQueue/drain(_:)``), never kept. The
/// bytes are valid UTF-8, the encoding libxml2 hands every document out in, so a reader copies
/// them where it keeps text and makes a `String` only where it needs one.
struct XMLText {
    /// Where the text is in the queue's bytes.
    var offset: Int
    var count: Int
    /// The bytes, once the queue hands the event out.
    var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    /// The text as a string.
    var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// The reasons an XML document is refused as a whole.
enum XMLRefusal: Sendable, Equatable {
    /// The document is not well-formed XML (XML 1.0 section 2.1): libxml2's message and location.
    case notWellFormed(message: String, location: SourceLocation)
    /// The document has a document type declaration, which could declare entities (an entity bomb,
    /// or an external entity that reads local files): refused before any of it is used.
    case documentTypeDeclaration(location: SourceLocation)
    /// The input holds no bytes at all.
    case empty
    /// An element has more attributes than the limit: refused before libxml2 reads it (its own
    /// duplicate check takes time that grows with the square of their number).
    case tooManyAttributes(limit: Int, location: SourceLocation)
}
