#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension HLSMultivariantPlaylist {
    /// The URI of the file at `target` relative to the playlist at `playlistPath` (both paths as
    /// given on a command line, relative to the working folder or absolute), as a playlist names
    /// it: `subs/en/subs.m3u8`, `../subs.m3u8`. Each path segment is percent-encoded where URI
    /// syntax (RFC 3986) requires.
    public static func relativeURI(from playlistPath: String, to target: String) -> String {
        var from = absoluteComponents(playlistPath)
        from.removeLast()
        let to = absoluteComponents(target)
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let steps = Array(repeating: "..", count: from.count - common) + to[common...].map(percentEncoded)
        return steps.joined(separator: "/")
    }

    /// The components of `path` made absolute, with `.` and `..` resolved.
    static func absoluteComponents(_ path: String) -> [String] {
        var full = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let folder = getcwd(&buffer, buffer.count) != nil ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : "."
            full = folder + "/" + path
        }
        var components: [String] = []
        for component in full.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(String(component))
            }
        }
        return components
    }

    /// A path segment with the bytes RFC 3986 does not allow in one percent-encoded.
    static func percentEncoded(_ segment: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@".utf8)
        var result = ""
        for byte in segment.utf8 {
            if allowed.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
