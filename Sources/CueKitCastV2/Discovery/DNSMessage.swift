/// The few DNS records multicast DNS service discovery uses (RFC 6762, RFC 6763), read and written
/// on bytes: a query for a service type, and the answers a device gives (PTR to its instance, SRV
/// with its port and host, TXT with its name and model, A/AAAA with its address).
public struct DNSMessage: Sendable, Hashable {
    /// One resource record.
    public enum Record: Sendable, Hashable {
        /// `name` points to an instance of the service (`PTR`).
        case pointer(name: String, target: String)
        /// Where an instance runs (`SRV`).
        case service(name: String, port: Int, target: String)
        /// An instance's key=value strings (`TXT`).
        case text(name: String, entries: [String])
        /// A host's address (`A`, `AAAA`), as text.
        case address(name: String, address: String)
        /// A record of another type.
        case other(name: String, type: Int)

        public var name: String {
            switch self {
            case .pointer(let name, _), .service(let name, _, _), .text(let name, _), .address(let name, _), .other(let name, _): name
            }
        }
    }

    public var id: UInt16 = 0
    public var isResponse = false
    /// The questions: names asked for, with their type.
    public var questions: [(name: String, type: Int)] = []
    /// Answers, authority and additional records, in order.
    public var records: [Record] = []

    public init() {}

    public static func == (lhs: DNSMessage, rhs: DNSMessage) -> Bool {
        lhs.id == rhs.id && lhs.isResponse == rhs.isResponse && lhs.records == rhs.records
            && lhs.questions.map(\.name) == rhs.questions.map(\.name) && lhs.questions.map(\.type) == rhs.questions.map(\.type)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(records)
    }

    public static let pointerType = 12
    public static let serviceType = 33
    public static let textType = 16
    public static let addressType = 1
    public static let address6Type = 28

    /// A query for the instances of a service type (a `PTR` question).
    public static func query(for service: String) -> DNSMessage {
        var message = DNSMessage()
        message.questions = [(service, pointerType)]
        return message
    }

    // MARK: Writing

    /// The message's bytes (names uncompressed).
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        func u16(_ value: Int) { bytes += [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func u32(_ value: Int) { bytes += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func name(_ text: String) {
            for label in text.split(separator: ".") {
                let utf8 = Array(label.utf8.prefix(63))
                bytes.append(UInt8(utf8.count))
                bytes += utf8
            }
            bytes.append(0)
        }
        u16(Int(id))
        u16(isResponse ? 0x8400 : 0)
        u16(questions.count)
        u16(records.count)
        u16(0)
        u16(0)
        for question in questions {
            name(question.name)
            u16(question.type)
            u16(1)
        }
        for record in records {
            name(record.name)
            var data: [UInt8] = []
            swap(&data, &bytes)
            let type: Int
            switch record {
            case .pointer(_, let target):
                type = Self.pointerType
                name(target)
            case .service(_, let port, let target):
                type = Self.serviceType
                u16(0)
                u16(0)
                u16(port)
                name(target)
            case .text(_, let entries):
                type = Self.textType
                for entry in entries {
                    let utf8 = Array(entry.utf8.prefix(255))
                    bytes.append(UInt8(utf8.count))
                    bytes += utf8
                }
            case .address(_, let address):
                let parts = address.split(separator: ".").compactMap { UInt8($0) }
                type = Self.addressType
                bytes += parts.count == 4 ? parts : [0, 0, 0, 0]
            case .other(_, let other):
                type = other
            }
            swap(&data, &bytes)
            u16(type)
            u16(1)
            u32(120)
            u16(data.count)
            bytes += data
        }
        return bytes
    }

    // MARK: Reading

    /// What is wrong with a message's bytes.
    public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// Reads a message; compressed names are followed (and a loop of pointers refused).
    public init(bytes: [UInt8]) throws(FormatError) {
        var at = 0
        func u16() throws(FormatError) -> Int {
            guard at + 2 <= bytes.count else { throw FormatError(description: "the message ends inside a field") }
            defer { at += 2 }
            return Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func name(from start: inout Int) throws(FormatError) -> String {
            var labels: [String] = []
            var position = start
            var jumped = false
            var jumps = 0
            while true {
                guard position < bytes.count else { throw FormatError(description: "a name runs past the message") }
                let length = Int(bytes[position])
                if length == 0 {
                    position += 1
                    break
                }
                if length & 0xC0 == 0xC0 {
                    guard position + 1 < bytes.count else { throw FormatError(description: "a name pointer runs past the message") }
                    let target = (length & 0x3F) << 8 | Int(bytes[position + 1])
                    jumps += 1
                    guard jumps < 64, target < bytes.count else { throw FormatError(description: "a loop of name pointers") }
                    if !jumped { start = position + 2 }
                    jumped = true
                    position = target
                    continue
                }
                guard position + 1 + length <= bytes.count else { throw FormatError(description: "a label runs past the message") }
                labels.append(String(decoding: bytes[(position + 1)..<(position + 1 + length)], as: UTF8.self))
                position += 1 + length
            }
            if !jumped { start = position }
            return labels.joined(separator: ".")
        }
        id = UInt16(try u16())
        isResponse = try u16() & 0x8000 != 0
        let questionCount = try u16()
        let recordCount = try u16() + u16() + u16()
        for _ in 0..<questionCount {
            let asked = try name(from: &at)
            let type = try u16()
            _ = try u16()
            questions.append((asked, type))
        }
        for _ in 0..<recordCount {
            let owner = try name(from: &at)
            let type = try u16()
            _ = try u16()
            _ = try u16()
            _ = try u16()
            let length = try u16()
            guard at + length <= bytes.count else { throw FormatError(description: "a record's data runs past the message") }
            let end = at + length
            switch type {
            case Self.pointerType:
                var position = at
                records.append(.pointer(name: owner, target: try name(from: &position)))
            case Self.serviceType where length >= 7:
                at += 4
                let port = try u16()
                var position = at
                records.append(.service(name: owner, port: port, target: try name(from: &position)))
            case Self.textType:
                var entries: [String] = []
                var position = at
                while position < end {
                    let count = Int(bytes[position])
                    guard position + 1 + count <= end else { throw FormatError(description: "a TXT string runs past its record") }
                    entries.append(String(decoding: bytes[(position + 1)..<(position + 1 + count)], as: UTF8.self))
                    position += 1 + count
                }
                records.append(.text(name: owner, entries: entries))
            case Self.addressType where length == 4:
                records.append(.address(name: owner, address: bytes[at..<end].map(String.init).joined(separator: ".")))
            case Self.address6Type where length == 16:
                let groups = stride(from: at, to: end, by: 2).map { String(Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]), radix: 16) }
                records.append(.address(name: owner, address: groups.joined(separator: ":")))
            default:
                records.append(.other(name: owner, type: type))
            }
            at = end
        }
    }
}
