/// Counts diagnostics by code and lets through at most `limit` of each, so that a file with one
/// systematic fault (a million cues timed with `.`) yields a few diagnostics and one note, not a
/// million lines. The readers of SubRip and TTML share it.
package struct DiagnosticLimiter: Sendable {
    package let limit: Int
    private var counts: [DiagnosticCode: Int] = [:]

    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Counts one diagnostic of `code`; true while it is within the limit.
    package mutating func admit(_ code: DiagnosticCode) -> Bool {
        let count = counts[code, default: 0] + 1
        counts[code] = count
        return count <= limit
    }

    /// True when no more diagnostics of `code` are let through (to skip work done only for them).
    package func isFull(_ code: DiagnosticCode) -> Bool {
        counts[code, default: 0] >= limit
    }

    /// One note per code over the limit, in the order of the codes, saying how many were left out.
    package func notes(code: DiagnosticCode) -> [Diagnostic] {
        counts.sorted { $0.key < $1.key }.compactMap { entry in
            guard entry.value > limit else { return nil }
            return Diagnostic(
                .note, code, at: nil,
                "\(entry.value - limit) more diagnostic(s) [\(entry.key.rawValue)] were not reported (the reader reports \(limit) of each kind)")
        }
    }
}
