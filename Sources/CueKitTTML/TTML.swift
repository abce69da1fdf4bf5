// CueKitTTML owns TTML (TTML1/2, IMSC, DFXP, SMPTE-TT, EBU-TT-D): the reader on libxml2's SAX2 push
// parser, which is the only code in CueKit that links libxml2, and the ttml- diagnostic codes.

import CueKit

/// TTML (Timed Text Markup Language 1 and 2, and the profiles built on them): the names the reader
/// recognises.
///
/// TTML vocabulary is identified by namespace, never by prefix (Namespaces in XML 1.0; TTML2
/// section 5.3): `<tt:p>`, `<p>` with a default namespace and `<x:p>` are the same element when
/// their namespace is TTML's. Besides TTML1/TTML2's namespaces, the reader accepts those of the
/// DFXP drafts of 2006 that distribution pipelines still emit, and the styling namespace spelled
/// `#style` that those drafts (and some later documents) used.
public enum TTML {
    /// The TTML namespace (TTML1 and TTML2, section 5.3.1).
    public static let namespace = "http://www.w3.org/ns/ttml"
    /// The TTML styling namespace, prefix `tts:` by convention.
    public static let stylingNamespace = "http://www.w3.org/ns/ttml#styling"
    /// The TTML parameter namespace, prefix `ttp:` by convention.
    public static let parameterNamespace = "http://www.w3.org/ns/ttml#parameter"
    /// The TTML metadata namespace, prefix `ttm:` by convention.
    public static let metadataNamespace = "http://www.w3.org/ns/ttml#metadata"
    /// The DFXP Candidate Recommendation namespace of October 2006.
    public static let dfxp2006October = "http://www.w3.org/2006/10/ttaf1"
    /// The DFXP Working Draft namespace of April 2006.
    public static let dfxp2006April = "http://www.w3.org/2006/04/ttaf1"
    /// The XML namespace (`xml:id`, `xml:lang`, `xml:space`).
    public static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    /// SMPTE-TT (SMPTE ST 2052-1), which adds `smpte:image` and `smpte:backgroundImage`.
    public static let smpteNamespace = "http://www.smpte-ra.org/schemas/2052-1/2010/smpte-tt"
    /// EBU-TT styling extensions (`ebutts:multiRowAlign`, `ebutts:linePadding`).
    public static let ebuStylingNamespace = "urn:ebu:tt:style"
    /// IMSC 1.x styling extensions (`itts:forcedDisplay`, `itts:fillLineGap`).
    public static let imscStylingNamespace = "http://www.w3.org/ns/ttml/profile/imsc1#styling"

    /// The profile designators of image-only documents, which CueKit refuses: the IMSC 1.0.1 / 1.1
    /// Image Profile and SMPTE-TT's image profile.
    public static let imageProfiles: Set<String> = [
        "http://www.w3.org/ns/ttml/profile/imsc1/image",
        "http://www.w3.org/ns/ttml/profile/imsc1.1/image",
        "http://www.w3.org/ns/ttml/profile/imsc1.2/image",
    ]

    /// The media type of TTML documents (TTML2 appendix C).
    public static let mediaType = TrackFormat.ttml.mediaType
}

/// Which family of TTML namespaces a name belongs to: the one place where namespaces are matched.
enum TTMLNamespace: Sendable, Hashable {
    /// The element namespace: TTML's, or a 2006 DFXP draft's.
    case content(TTMLVersion)
    /// `tts:` in any of its spellings.
    case styling
    /// `ttp:` in any of its spellings.
    case parameter
    /// `ttm:` in any of its spellings.
    case metadata
    /// `xml:`.
    case xml
    /// SMPTE-TT's extensions.
    case smpte
    /// EBU-TT's styling extensions.
    case ebuStyling
    /// IMSC's styling extensions.
    case imscStyling
    /// No namespace: unprefixed attributes (`begin`, `style`, `region`, `xml:id`'s DFXP-era `id`).
    case none
    /// Anything else: foreign vocabulary, ignored as TTML2 section 5.3.4 requires.
    case foreign

    /// The namespace family of a namespace name.
    init(_ uri: String) {
        switch uri {
        case "": self = .none
        case TTML.namespace: self = .content(.ttml)
        case TTML.stylingNamespace, TTML.namespace + "#style", TTML.dfxp2006October + "#styling",
            TTML.dfxp2006October + "#style", TTML.dfxp2006April + "#styling", TTML.dfxp2006April + "#style":
            self = .styling
        case TTML.parameterNamespace, TTML.dfxp2006October + "#parameter", TTML.dfxp2006April + "#parameter":
            self = .parameter
        case TTML.metadataNamespace, TTML.dfxp2006October + "#metadata", TTML.dfxp2006April + "#metadata":
            self = .metadata
        case TTML.xmlNamespace: self = .xml
        case TTML.dfxp2006October: self = .content(.dfxp2006October)
        case TTML.dfxp2006April: self = .content(.dfxp2006April)
        case TTML.smpteNamespace: self = .smpte
        case TTML.ebuStylingNamespace: self = .ebuStyling
        case TTML.imscStylingNamespace: self = .imscStyling
        default: self = .foreign
        }
    }

    /// True for a styling namespace spelled in a way no TTML Recommendation uses
    /// (`http://www.w3.org/ns/ttml#style`): read, and reported.
    static func isNonstandardStyling(_ uri: String) -> Bool {
        uri == TTML.namespace + "#style"
    }
}

/// The generation of the TTML vocabulary a document uses, from its element namespace.
enum TTMLVersion: Sendable, Hashable {
    /// TTML1 or TTML2 (`http://www.w3.org/ns/ttml`).
    case ttml
    /// DFXP Candidate Recommendation, October 2006.
    case dfxp2006October
    /// DFXP Working Draft, April 2006.
    case dfxp2006April
}
