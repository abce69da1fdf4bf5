import CueKit
import CueKitCast
import CueKitConversion
import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// Tracks converted on request: `GET /tracks/NAME?as=vtt&style=STYLE` reads NAME (WebVTT, SubRip
/// or TTML) from the served folder and answers WebVTT with the Cast style baked in.
///
/// A conversion streams from the source to a file in the cache folder, so memory stays bounded
/// whatever the track's size, and the file is then served like any other (ranges, gzip,
/// conditional requests). The cache key is made of the source's identity (device, inode, size,
/// modification time, which is what its own entity tag says) and the style: an unchanged source
/// is converted once, and a client holding the entity tag gets `304 Not Modified` without any
/// work. `STYLE` is a Cast `TextTrackStyle` as JSON (inline, URL encoded) or the name of a JSON
/// file in the folder: a style, media information or a LOAD whose media has a `textTrackStyle`.
///
/// Conversions run on a ``ConversionPool`` of their own; requests for a conversion already under
/// way wait for it instead of starting another. The folder is bounded (``TrackServer/ConversionLimits``):
/// the least recently used conversions are removed first, and those of a source that changed as
/// soon as the change is seen. A conversion being sent is kept until its answer is done.
actor TrackConversionCache {
    /// The served folder.
    let files: ConfinedFileSystem
    /// Where converted tracks are kept.
    nonisolated let cacheFolder: String
    /// The threads conversions run on.
    let pool: ConversionPool
    private var store: BoundedCache<ConversionKey, ConvertedFile>
    /// The version of each source last seen, to drop the conversions of earlier ones.
    private var versions: [String: SourceVersion] = [:]
    private var inFlight: [ConversionKey: Task<ConvertedFile, any Error>] = [:]
    /// How many answers use each conversion now (they are not removed meanwhile).
    private var leases: [ConversionKey: Int] = [:]
    /// Files dropped from the cache while in use, removed when their last answer is done.
    private var orphans: [ConversionKey: String] = [:]
    private var serial = 0
    /// How many conversions have been run (not found in the cache).
    private(set) var conversionsRun = 0

    init(files: ConfinedFileSystem, cacheFolder: String, limits: TrackServer.ConversionLimits = .init()) {
        self.files = files
        self.cacheFolder = cacheFolder
        store = BoundedCache(limits: .init(bytes: limits.maximumBytes, entries: limits.maximumEntries))
        pool = ConversionPool(threads: limits.threads, maximumWaiting: limits.maximumWaiting)
    }

    /// A converted track ready to serve: its file in the cache folder, its entity tag, what the
    /// conversion reported, and the lease that keeps the file until the answer is done.
    struct Converted: Sendable {
        let cacheName: String
        let entityTag: String
        let summary: String
        let lease: ConversionLease
    }

    /// A request that cannot be converted: the status, a message for the body, and headers.
    struct Refusal: Error {
        let status: HTTPResponse.Status
        let message: String
        var headers: HTTPFields = [:]

        /// The answer: the message as plain text, with the headers; `root` (the served folder's
        /// path) left out of the message, so that paths read as the client names them.
        func response(hiding root: String) -> Response {
            var fields = headers
            fields[.contentType] = "text/plain; charset=utf-8"
            let message = root.isEmpty ? message : message.replacingOccurrences(of: root, with: "")
            return Response(
                status: status, headers: fields,
                body: .init(byteBuffer: ByteBuffer(string: message.hasSuffix("\n") ? message : message + "\n")))
        }
    }

    /// Converts `name` with `style` (or finds its earlier conversion, or waits for the one under way).
    func convert(name: String, format: String?, style: String?) async throws -> Converted {
        if let format, format.lowercased() != "vtt" && format.lowercased() != "webvtt" {
            throw Refusal(status: .badRequest, message: "as=\(format): tracks are converted to WebVTT only (as=vtt)")
        }
        return try await convert(name: name, into: .webVTT, style: style)
    }

    /// Converts `name` with `style` into `product` (or finds its earlier conversion, or waits for
    /// the one under way). A rendition's segment URIs carry `segmentQuery`.
    func convert(name: String, into product: ConvertedProduct, style: String?, segmentQuery: String = "") async throws -> Converted {
        guard let source = files.confinedPath(name) else {
            throw Refusal(status: .notFound, message: "no track named \(name) in the served folder")
        }
        var info = stat()
        guard stat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw Refusal(status: .notFound, message: "\(name) is not a file")
        }
        let (textTrackStyle, styleKey) = try loadStyle(style)
        let version = SourceVersion(info)
        let key = ConversionKey(source: source, version: version, style: styleKey, product: product)
        dropSuperseded(source: source, version: version)
        let lease = ConversionLease(cache: self, key: key)
        leases[key, default: 0] += 1
        let file: ConvertedFile
        if let found = store.value(for: key), access(cacheFolder + "/" + found.cacheName, F_OK) == 0 {
            file = found
        } else if let running = inFlight[key] {
            file = try await running.value
        } else {
            store.removeValue(forKey: key)
            let task = Task { try await self.runConversion(key: key, style: textTrackStyle, segmentQuery: segmentQuery) }
            inFlight[key] = task
            file = try await task.value
        }
        return Converted(cacheName: file.cacheName, entityTag: file.entityTag, summary: file.summary, lease: lease)
    }

    /// Converts `key` on the pool into a new file of the cache, which it then holds. Refusals
    /// say why a conversion failed, with a body and the status a client can act on: `503` when
    /// the pool is full, `507` when the disk is.
    private func runConversion(key: ConversionKey, style: TextTrackStyle?, segmentQuery: String) async throws -> ConvertedFile {
        defer { inFlight[key] = nil }
        serial += 1
        let tag = Self.hash("\(key.source)\u{0}\(key.version)\u{0}\(key.style)\u{0}\(key.product)")
        let cacheName = key.product == .webVTT ? "\(tag)-\(serial).vtt" : "\(tag)-\(serial).hls"
        let path = cacheFolder + "/" + cacheName
        let job = Job(source: key.source, style: style, product: key.product, segmentQuery: segmentQuery)
        let summary: String
        do {
            summary = try await convertOnPool(job, to: path)
        } catch let failure as WriteError where failure.systemError == ENOSPC || failure.systemError == EDQUOT {
            // Room is made from the conversions no answer uses, once.
            removeUnused()
            do {
                summary = try await convertOnPool(job, to: path)
            } catch let failure as WriteError {
                Self.remove(path)
                throw Refusal(
                    status: Self.insufficientStorage,
                    message: "no room left to keep the converted track (\(String(cString: strerror(failure.systemError)))); "
                        + "the server keeps at most \(store.limits.bytes) bytes of converted tracks (--conversion-cache-bytes)")
            }
        }
        let size = Self.bytes(at: path)
        let file = ConvertedFile(cacheName: cacheName, entityTag: "\"\(tag)\"", summary: summary)
        store.insert(file, for: key, cost: size + key.source.utf8.count + key.style.utf8.count + 128)
        versions[key.source] = key.version
        conversionsRun += 1
        trim()
        return file
    }

    /// One conversion on the pool, its failures turned into refusals (a write failure is left
    /// for the caller, which can make room).
    private func convertOnPool(_ job: Job, to path: String) async throws -> String {
        do {
            return try await pool.run { try job.write(to: path) }
        } catch is ConversionPool.Busy {
            var headers = HTTPFields()
            headers[.retryAfter] = "1"
            throw Refusal(
                status: .serviceUnavailable,
                message: "every conversion place is taken (\(pool.threads) running, \(pool.maximumWaiting) waiting); "
                    + "try again shortly (--conversion-threads, --max-waiting-conversions)",
                headers: headers)
        } catch let refusal as Refusal {
            throw refusal
        } catch let failure as WriteError where failure.systemError == ENOSPC || failure.systemError == EDQUOT {
            throw failure
        } catch let failure as WriteError {
            Self.remove(path)
            throw Refusal(
                status: .internalServerError,
                message: "the converted track cannot be kept: \(String(cString: strerror(failure.systemError)))")
        } catch {
            Self.remove(path)
            throw Refusal(status: .internalServerError, message: "the conversion failed: \(error)")
        }
    }

    /// `507 Insufficient Storage` (RFC 4918): no room for the converted track.
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

    /// Removes the conversions of `source` made from another version than `version`.
    private func dropSuperseded(source: String, version: SourceVersion) {
        guard let known = versions[source], known != version else { return }
        versions[source] = version
        for (key, file) in store.removeAll(where: { key, _ in key.source == source && key.version != version }) {
            discard(key: key, file: file)
        }
    }

    /// Removes every conversion no answer uses (to make room on a full disk).
    private func removeUnused() {
        for (key, file) in store.removeAll(where: { key, _ in leases[key] == nil }) { discard(key: key, file: file) }
    }

    /// Keeps the cache within its budget, the least recently used out first.
    private func trim() {
        for (key, file) in store.trim(keeping: { leases[$0] != nil }) { discard(key: key, file: file) }
    }

    /// Removes the file of a conversion dropped from the cache, or once its last answer is done.
    private func discard(key: ConversionKey, file: ConvertedFile) {
        if leases[key] != nil {
            orphans[key] = file.cacheName
        } else {
            Self.remove(cacheFolder + "/" + file.cacheName)
        }
    }

    /// An answer using `key` is done.
    func release(_ key: ConversionKey) {
        guard let count = leases[key] else { return }
        if count > 1 {
            leases[key] = count - 1
            return
        }
        leases[key] = nil
        if let orphan = orphans.removeValue(forKey: key), store.value(for: key)?.cacheName != orphan {
            Self.remove(cacheFolder + "/" + orphan)
        }
        trim()
    }

    /// What the cache holds: entries and their bytes (files and keys).
    var usage: (entries: Int, bytes: Int) { (store.count, store.bytes) }

    /// The style a request names, and its key in the cache.
    private func loadStyle(_ parameter: String?) throws -> (TextTrackStyle?, String) {
        guard let parameter, !parameter.isEmpty else { return (nil, "") }
        let bytes: [UInt8]
        let label: String
        if parameter.first == "{" {
            bytes = Array(parameter.utf8)
            label = "style"
        } else {
            guard let path = files.confinedPath(parameter),
                let data = ConfinedFileSystem.contents(atPath: path, upTo: CastMessage.defaultMaximumLength)
            else {
                throw Refusal(status: .notFound, message: "style=\(parameter): no such JSON file in the served folder")
            }
            guard data.count <= CastMessage.defaultMaximumLength else {
                throw Refusal(status: .badRequest, message: "style=\(parameter): longer than \(CastMessage.defaultMaximumLength) bytes")
            }
            bytes = Array(data)
            label = parameter
        }
        let result = CastMessage.check(bytes)
        let errors = result.diagnostics.filter { $0.severity == .error }
        let style: TextTrackStyle?
        switch result.message {
        case .style(let found): style = found
        case .media(let media): style = media.textTrackStyle
        case .load(let load): style = load.media.textTrackStyle
        case .editTracksInfo(let edit): style = edit.textTrackStyle
        case .mediaStatus(let status): style = status.statuses.first?.media?.textTrackStyle
        case nil: style = nil
        }
        guard errors.isEmpty, let style else {
            let details = errors.map { $0.formatted(file: label) }.joined(separator: "\n")
            throw Refusal(
                status: .badRequest, message: details.isEmpty ? "\(label) holds no textTrackStyle" : details)
        }
        return (style, style.json.serialized(.compact))
    }

    /// 64-bit FNV-1a, as 16 hexadecimal digits: an entity tag and a file name, not a defence (the
    /// cache is keyed by the whole ``ConversionKey``).
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
