import HummingbirdCore
import NIOCore
import Synchronization

/// Every connection the server holds, and whether each is waiting on its client (no request in
/// progress) or busy (a request being read or answered, or a WebSocket).
///
/// It is what keeps slow or silent clients from locking others out: when the server is full, a
/// new connection takes the place of the one that has waited longest for its client, instead of
/// queueing behind it. It also lets a stop close every connection at once, whatever it is doing.
final class ConnectionTable: Sendable {
    /// A connection's number in the table.
    struct ID: Hashable, Sendable {
        fileprivate let value: Int
    }

    private struct Entry {
        var channel: any Channel
        /// When the connection began waiting on its client; nil while it is busy.
        var waitingSince: NIODeadline?
    }

    private struct Table {
        var entries: [ID: Entry] = [:]
        var nextID = 0
        var closingAll = false
    }

    /// The most connections held at once.
    let maximum: Int
    private let table = Mutex(Table())

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// The connections held now.
    var count: Int { table.withLock { $0.entries.count } }

    /// Whether another connection can be accepted: the table has room, or holds a connection
    /// waiting on its client that the new one may replace.
    var admitsAnother: Bool {
        table.withLock { table in
            table.entries.count < maximum || table.entries.values.contains { $0.waitingSince != nil }
        }
    }

    /// Adds `channel`, waiting on its client. When the table is then over its maximum, the
    /// connection that has waited longest is closed to make room. After ``closeAll()`` the
    /// channel is closed at once.
    func open(_ channel: any Channel) -> ID {
        let (id, evicted, refused): (ID, (any Channel)?, Bool) = table.withLock { table in
            let id = ID(value: table.nextID)
            table.nextID += 1
            if table.closingAll { return (id, nil, true) }
            table.entries[id] = Entry(channel: channel, waitingSince: .now())
            guard table.entries.count > maximum else { return (id, nil, false) }
            let oldest = table.entries.filter { $0.key != id && $0.value.waitingSince != nil }
                .min { $0.value.waitingSince! < $1.value.waitingSince! }
            guard let oldest else { return (id, nil, false) }
            table.entries[oldest.key] = nil
            return (id, oldest.value.channel, false)
        }
        evicted?.close(promise: nil)
        if refused { channel.close(promise: nil) }
        return id
    }

    /// The connection is waiting on its client again (between requests).
    func waiting(_ id: ID) {
        table.withLock { $0.entries[id]?.waitingSince = .now() }
    }

    /// The connection is busy: a request is read or answered, or it became a WebSocket.
    func busy(_ id: ID) {
        table.withLock { $0.entries[id]?.waitingSince = nil }
    }

    /// The connection closed.
    func closed(_ id: ID) {
        table.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    /// Closes every connection now, and any opened from now on.
    func closeAll() {
        let channels = table.withLock { table in
            table.closingAll = true
            defer { table.entries = [:] }
            return table.entries.values.map(\.channel)
        }
        for channel in channels { channel.close(promise: nil) }
    }
}

/// Hummingbird's gate on accepting connections, answered by the ``ConnectionTable``: a full
/// server still accepts a connection when one held is only waiting on its client.
struct ConnectionAdmission: AvailableConnectionsDelegate {
    let table: ConnectionTable

    mutating func connectionOpened() {}
    mutating func connectionClosed() {}
    func isAcceptingNewConnections() -> Bool { table.admitsAnother }
}
