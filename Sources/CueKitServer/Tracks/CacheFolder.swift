import Foundation

/// The server's folder of converted tracks: a fresh folder under the system's temporary folder,
/// removed with everything in it when the last server value holding it is released, so a server
/// that is made and never run, or run by a test through its application, leaves nothing behind.
final class CacheFolder: Sendable {
    /// The folder's path.
    let path: String

    /// Makes a folder named `cuekit-serve-UUID`; throws when it cannot be made.
    init() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cuekit-serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
    }

    /// Removes the folder and what it holds (also done when the value is released).
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    deinit { remove() }
}
