import CueKitTestSupport
import Foundation
import Testing

/// What each library product links, read from `Package.swift`: a user who reads tracks never
/// links SwiftNIO, and the server and the WebSocket sender link no TLS, protobuf, X509 or Crypto
/// (only what speaks Cast v2 does).
@Suite struct ProductDependencyTests {
    /// A target's direct dependencies as the manifest names them: the quoted names in its
    /// `dependencies: [...]`, targets and products alike.
    static func dependencies(of target: String, in manifest: String) throws -> [String] {
        let declaration = try #require(
            manifest.range(of: #"\.(target|systemLibrary)\(\s*name:\s*""# + target + "\"", options: .regularExpression),
            "no target \(target) in Package.swift")
        // The declaration runs to the parenthesis that closes `.target(`.
        var depth = 1
        var inQuotes = false
        var end = declaration.upperBound
        for index in manifest[declaration.upperBound...].indices {
            let character = manifest[index]
            if character == "\"" { inQuotes.toggle() }
            if inQuotes { continue }
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth == 0 {
                end = index
                break
            }
        }
        let block = manifest[declaration.upperBound..<end]
        guard let list = block.range(of: "dependencies: [") else { return [] }
        // The quoted names up to the `]` that closes the list.
        var names: [String] = []
        var name: String?
        var brackets = 1
        for character in block[list.upperBound...] {
            if name != nil {
                if character == "\"" {
                    names.append(name!)
                    name = nil
                } else {
                    name!.append(character)
                }
            } else if character == "\"" {
                name = ""
            } else if character == "[" {
                brackets += 1
            } else if character == "]" {
                brackets -= 1
                if brackets == 0 { break }
            }
        }
        return names
    }

    /// Every target and product `target` depends on, directly or through the package's targets.
    static func closure(of target: String, in manifest: String, targets: Set<String>) throws -> Set<String> {
        var seen: Set<String> = []
        var queue = [target]
        while let next = queue.popLast() {
            for name in try dependencies(of: next, in: manifest) where !seen.contains(name) {
                seen.insert(name)
                if targets.contains(name) { queue.append(name) }
            }
        }
        return seen
    }

    @Test func readersLinkNoNetworkAndTheServerAndSenderNoTLS() throws {
        let manifest = String(decoding: try TestPaths.bytes(TestPaths.packageRoot + "/Package.swift"), as: UTF8.self)
        let targets: Set<String> = [
            "CueKit", "CueKitWebVTT", "CueKitSubRip", "CueKitTTML", "CueKitConversion", "CueKitHLS", "CueKitCast", "CueKitServer",
            "CueKitCastSender", "CueKitCastV2", "CueKitSynthetic", "CCueKitBytes", "CCueKitLibXML2",
        ]
        let network = ["NIOCore", "NIOPosix", "Hummingbird", "HummingbirdWebSocket", "HummingbirdWSClient", "CueKitCastV2"]
        let secure = ["NIOSSL", "SwiftProtobuf", "X509", "Crypto", "HummingbirdWSClient", "CueKitCastV2", "HummingbirdTLS"]
        for reader in ["CueKitWebVTT", "CueKitSubRip", "CueKitTTML", "CueKitConversion", "CueKitHLS", "CueKitCast"] {
            let linked = try Self.closure(of: reader, in: manifest, targets: targets)
            #expect(linked.contains("CueKit"), "\(reader): the closure misses CueKit itself, \(linked)")
            #expect(linked.isDisjoint(with: network), "\(reader) links \(linked.intersection(network))")
        }
        for networked in ["CueKitServer", "CueKitCastSender"] {
            let linked = try Self.closure(of: networked, in: manifest, targets: targets)
            #expect(linked.contains("NIOCore") || linked.contains("Hummingbird"), "\(networked): \(linked)")
            #expect(linked.isDisjoint(with: secure), "\(networked) links \(linked.intersection(secure))")
        }
        #expect(try Self.closure(of: "CueKitCastV2", in: manifest, targets: targets).contains("NIOSSL"))
    }
}
