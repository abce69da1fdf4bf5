import CueKitTestSupport
import Foundation
import Testing

/// `cuekit serve` stopped by a signal while clients hold connections: the stop is bounded, and
/// the folder of converted tracks goes with the server.
@Suite(.tags(.network), .skippableByTag) struct ServeStopTests {
    /// A server on a free port whose temporary files go to a folder of the test's own.
    struct Serving {
        let command: RunningCommand
        let port: Int
        let temporary = TemporaryDirectory()

        init(folder: String, arguments: [String]) throws {
            command = try RunningCommand(
                ["serve", folder, "--port", "0", "--quiet"] + arguments, standardError: .nullDevice,
                environment: ["TMPDIR": temporary.path])
            _ = command.wait(seconds: 60) { $0.contains("\n") }
            let line = String(command.text.prefix { $0 != "\n" })
            guard let range = line.range(of: "127.0.0.1:"), let port = Int(line[range.upperBound...].prefix { $0.isNumber }) else {
                command.stop()
                throw Failure(description: "cuekit serve printed no address: \(line)")
            }
            self.port = port
        }

        struct Failure: Error, CustomStringConvertible { let description: String }

        /// The server's own folders left in the temporary folder.
        var cacheFolders: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).filter { $0.hasPrefix("cuekit-serve-") }
        }

        /// Sends `signal`.
        func send(_ signal: Int32) { kill(command.process.processIdentifier, signal) }
    }

    /// A connection to `port` that sends `request` and reads nothing; closed when released.
    final class StalledClient {
        let descriptor: Int32

        init(port: Int, request: String) {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            // A small receive buffer, so that the download stays under way.
            var size: Int32 = 4096
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
        }

        deinit { close(descriptor) }
    }

    static func folderWithAMovie() -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        _ = FileManager.default.createFile(atPath: folder.file("movie.bin"), contents: Data(repeating: 7, count: 64 << 20))
        return folder
    }

    static let download = "GET /movie.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test func aStopClosesEveryConnectionAfterTheGraceAndRemovesTheCache() throws {
        let folder = Self.folderWithAMovie()
        defer { folder.remove() }
        let server = try Serving(folder: folder.path, arguments: ["--shutdown-grace", "1"])
        defer { server.temporary.remove() }
        #expect(server.cacheFolders.count == 1)
        let silent = StalledClient(port: server.port, request: "")
        let downloading = StalledClient(port: server.port, request: Self.download)
        usleep(300_000)
        let start = Date()
        server.send(SIGINT)
        let status = server.command.exitStatus()
        let elapsed = Date().timeIntervalSince(start)
        #expect(status == 0)
        // The download had its grace, and no more (it never ends by itself: the client reads
        // nothing; the bound leaves room for a loaded machine).
        #expect(elapsed >= 0.9 && elapsed < 20, "stopped after \(elapsed) s")
        #expect(server.cacheFolders.isEmpty)
        withExtendedLifetime((silent, downloading)) {}
    }

    @Test func aSecondSignalStopsAtOnce() throws {
        let folder = Self.folderWithAMovie()
        defer { folder.remove() }
        let server = try Serving(folder: folder.path, arguments: ["--shutdown-grace", "600"])
        defer { server.temporary.remove() }
        let downloading = StalledClient(port: server.port, request: Self.download)
        usleep(300_000)
        let start = Date()
        server.send(SIGTERM)
        usleep(300_000)
        #expect(server.command.process.isRunning, "the download's grace was not given")
        server.send(SIGINT)
        let status = server.command.exitStatus()
        #expect(status == 0)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(server.cacheFolders.isEmpty)
        withExtendedLifetime(downloading) {}
    }
}
