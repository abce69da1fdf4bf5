#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Cast device found on the network.
public struct CastDeviceInfo: Sendable, Hashable {
    /// Its friendly name (`fn`), as its owner named it.
    public var name: String
    /// Its model (`md`): "Chromecast", "Google Nest Hub", …
    public var model: String?
    /// Its id (`id`).
    public var id: String?
    /// The address to connect to, and its Cast v2 port.
    public var host: String
    public var port: Int

    public init(name: String, model: String? = nil, id: String? = nil, host: String, port: Int) {
        self.name = name
        self.model = model
        self.id = id
        self.host = host
        self.port = port
    }
}

/// Finds Cast devices by multicast DNS: one query for `_googlecast._tcp.local`, then every
/// answer collected for a while. The query is sent from an ordinary port, so devices answer it
/// by unicast (a "legacy" query, RFC 6762 section 6.7): no multicast group is joined and nothing
/// listens on port 5353.
public enum CastDeviceDiscovery {
    /// The service Cast devices announce.
    public static let service = "_googlecast._tcp.local"

    /// What went wrong with the query's socket.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// Sends the query to `server` (the mDNS group by default) and returns the devices that
    /// answered within `timeout`, each once, by name.
    public static func discover(timeout: Duration = .seconds(3), server: String = "224.0.0.251", port: Int = 5353) throws(Failure) -> [CastDeviceInfo] {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "cannot open a UDP socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, server, &address.sin_addr) == 1 else { throw Failure(description: "\(server) is not an IPv4 address") }
        let query = DNSMessage.query(for: service).serialized()
        let sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(descriptor, query, query.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard sent == query.count else { throw Failure(description: "cannot send the mDNS query to \(server):\(port): \(String(cString: strerror(errno)))") }

        var found: [String: CastDeviceInfo] = [:]
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 9000)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            var wait = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&wait, 1, max(milliseconds, 1)) > 0 else { continue }
            var source = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = withUnsafeMutablePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, &buffer, buffer.count, 0, $0, &length) }
            }
            guard count > 0, let message = try? DNSMessage(bytes: Array(buffer[..<count])), message.isResponse else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            inet_ntop(AF_INET, &source.sin_addr, &text, socklen_t(text.count))
            let sourceAddress = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for device in devices(in: message, from: sourceAddress) { found[device.id ?? device.name] = device }
        }
        return found.values.sorted { ($0.name, $0.host) < ($1.name, $1.host) }
    }

    /// The devices a response describes: each instance pointed to, with its SRV, TXT and address
    /// (the response's source when it gives none).
    public static func devices(in message: DNSMessage, from source: String) -> [CastDeviceInfo] {
        var result: [CastDeviceInfo] = []
        for case .pointer(let name, let instance) in message.records where name.lowercased() == service {
            var port = 8009
            var target: String?
            var entries: [String: String] = [:]
            for record in message.records where record.name == instance {
                switch record {
                case .service(_, let servicePort, let host):
                    port = servicePort
                    target = host
                case .text(_, let strings):
                    for entry in strings {
                        let parts = entry.split(separator: "=", maxSplits: 1)
                        if parts.count == 2 { entries[String(parts[0])] = String(parts[1]) }
                    }
                default: break
                }
            }
            let address = message.records.lazy.compactMap { record -> String? in
                if case .address(let host, let address) = record, host == target, address.contains(".") { return address }
                return nil
            }.first
            let fallbackName = instance.split(separator: ".").first.map(String.init) ?? instance
            result.append(CastDeviceInfo(name: entries["fn"] ?? fallbackName, model: entries["md"], id: entries["id"], host: address ?? source, port: port))
        }
        return result
    }
}
