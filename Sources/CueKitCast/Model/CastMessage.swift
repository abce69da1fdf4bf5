import CueKit

/// Any Cast JSON document CueKit checks: a `LOAD` or `EDIT_TRACKS_INFO` message, bare media
/// information, or a bare text track style.
public enum CastMessage: Sendable, Hashable {
    /// A `LOAD` message.
    case load(CastLoadRequest)
    /// An `EDIT_TRACKS_INFO` message.
    case editTracksInfo(CastEditTracksInfoRequest)
    /// Media information on its own (what `cuekit cast media --media-only` prints).
    case media(MediaInformation)
    /// A text track style on its own (what `cuekit style --style` reads).
    case style(TextTrackStyle)
    /// A `MEDIA_STATUS` message, a receiver's answer.
    case mediaStatus(CastMediaStatusMessage)

    /// The document as Cast JSON.
    public var json: CastJSONValue {
        switch self {
        case .load(let request): request.json
        case .editTracksInfo(let request): request.json
        case .media(let media): media.json
        case .style(let style): style.json
        case .mediaStatus(let status): status.json
        }
    }

    /// What a document is, from its members: `type` names the message; otherwise `contentId`,
    /// `contentUrl` or `tracks` mark media information, and anything else is read as a style.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A `LOAD` message.
        case load
        /// An `EDIT_TRACKS_INFO` message.
        case editTracksInfo = "edit-tracks-info"
        /// Media information on its own.
        case media
        /// A text track style on its own.
        case style
        /// A `MEDIA_STATUS` message.
        case mediaStatus = "media-status"
    }

    /// The kind of a JSON value; nil when its `type` names a message CueKit does not check.
    public static func kind(of json: CastJSONValue) -> Kind? {
        guard case .object(let object) = json else { return .media }
        if let type = object["type"] {
            switch type {
            case .string(CastLoadRequest.type): return .load
            case .string(CastEditTracksInfoRequest.type): return .editTracksInfo
            case .string(CastMediaStatusMessage.type): return .mediaStatus
            default: return nil
            }
        }
        if object["media"] != nil { return .load }
        if object["contentId"] != nil || object["contentUrl"] != nil || object["tracks"] != nil || object["streamType"] != nil {
            return .media
        }
        if object.keys.contains(where: TextTrackStyle.fieldNames.contains) { return .style }
        return .media
    }

    /// Parses, decodes and validates a Cast JSON document as a receiver would, collecting every
    /// problem: syntax, field shapes, and the receiver's rules.
    ///
    /// `kind` forces how the document is read; by default it is found from its members.
    public static func check(_ bytes: some Collection<UInt8>, as kind: Kind? = nil, maximumLength: Int = defaultMaximumLength)
        -> CastCheckResult
    {
        guard bytes.count <= maximumLength else {
            return CastCheckResult(message: nil, diagnostics: [tooLong(maximumLength)])
        }
        let document: CastJSONDocument
        do {
            document = try CastJSONDocument(parsing: bytes)
        } catch {
            return CastCheckResult(message: nil, diagnostics: [error.diagnostic])
        }
        return check(document, as: kind)
    }

    /// The longest message checked, in bytes: 1 MiB. A Cast channel carries messages of at most
    /// 64 KiB; a longer document is refused before it is parsed, since parsing takes memory many
    /// times its size.
    public static let defaultMaximumLength = 1 << 20

    /// The error for a message longer than `maximumLength`.
    public static func tooLong(_ maximumLength: Int) -> Diagnostic {
        Diagnostic(
            .error, .castMessageTooLarge, at: SourceLocation(line: 1, column: 1),
            "the document is longer than \(maximumLength) bytes, the most checked as a Cast message (a Cast channel carries at most 65,536); raise the limit with cuekit cast check --max-message-bytes")
    }

    /// Decodes and validates a parsed document (see ``check(_:as:)-swift.type.method``).
    ///
    /// `media` is the loaded media an `EDIT_TRACKS_INFO` or a `MEDIA_STATUS` is checked against:
    /// their active track ids must name its tracks.
    public static func check(_ document: CastJSONDocument, as kind: Kind? = nil, loadedMedia media: MediaInformation? = nil) -> CastCheckResult {
        var diagnostics = document.diagnostics
        guard let resolvedKind = kind ?? Self.kind(of: document.value) else {
            let type = document.value.objectValue?["type"] ?? .null
            let name = type.stringValue.map { "\"\($0)\"" } ?? type.typeDescription
            let typePath = CastJSONPath.root.appending("type")
            let unknown = Diagnostic(
                .error, .castUnknownMessageType, at: document.locations[typePath],
                "\(typePath): \(name) is not a message type CueKit checks (LOAD, EDIT_TRACKS_INFO, MEDIA_STATUS)"
            )
            return CastCheckResult(message: nil, diagnostics: diagnostics + [unknown])
        }
        var decoder = CastDecoder(locations: document.locations)
        let message: CastMessage?
        var validation: [Diagnostic] = []
        switch resolvedKind {
        case .load:
            let request = CastLoadRequest.decode(document.value, at: .root, with: &decoder)
            message = request.map(CastMessage.load)
            validation = request?.validate(locations: document.locations) ?? []
        case .editTracksInfo:
            let request = CastEditTracksInfoRequest.decode(document.value, at: .root, with: &decoder)
            message = request.map(CastMessage.editTracksInfo)
            validation = request?.validate(against: media, locations: document.locations) ?? []
        case .media:
            let media = MediaInformation.decode(document.value, at: .root, with: &decoder)
            message = media.map(CastMessage.media)
            validation = media?.validate(locations: document.locations) ?? []
        case .style:
            let style = TextTrackStyle.decode(document.value, at: .root, with: &decoder)
            message = style.map(CastMessage.style)
            validation = style?.validate(locations: document.locations) ?? []
        case .mediaStatus:
            let status = CastMediaStatusMessage.decode(document.value, at: .root, with: &decoder)
            message = status.map(CastMessage.mediaStatus)
            validation = status?.validate(against: media, locations: document.locations) ?? []
        }
        if resolvedKind == .load || resolvedKind == .editTracksInfo, document.value.objectValue?["requestId"] == nil {
            let what = resolvedKind == .load ? "a LOAD message" : "an EDIT_TRACKS_INFO message"
            validation.append(
                Diagnostic(
                    .warning, .castMissingField, at: document.locations[.root],
                    "$: \(what) needs a requestId (an integer), as Cast's reference requires: the receiver answers with it and senders match the answer by it (the sender SDKs and cuekit cast send add one)"
                ))
        }
        diagnostics += decoder.diagnostics + validation
        diagnostics = diagnostics.enumerated().sorted { lhs, rhs in
            switch (lhs.element.location, rhs.element.location) {
            case let (left?, right?) where left != right: return left < right
            case (nil, _?): return false
            case (_?, nil): return true
            default: return lhs.offset < rhs.offset
            }
        }.map(\.element)
        return CastCheckResult(message: message, diagnostics: diagnostics)
    }
}

/// What checking a Cast document found.
public struct CastCheckResult: Sendable, Hashable {
    /// The decoded message, when the document could be read as one (even with errors in optional
    /// fields, which are then dropped).
    public var message: CastMessage?
    /// Every problem, in document order.
    public var diagnostics: [Diagnostic]

    /// Creates a result.
    public init(message: CastMessage?, diagnostics: [Diagnostic]) {
        self.message = message
        self.diagnostics = diagnostics
    }

    /// True when nothing is an error: a receiver accepts the message and every track can work.
    public var isValid: Bool { message != nil && !diagnostics.contains { $0.severity == .error } }
}
