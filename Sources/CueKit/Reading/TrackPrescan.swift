/// A reader whose format may put, late in a file, what a writer needs before the first cue.
///
/// WebVTT wants every `STYLE` block before the first cue, but a TTML document can style its last
/// paragraph inline, and a SubRip file can use a new `<font color>` in its last cue. Such a reader
/// offers a cheap first pass, its ``Prescanner``, over the same bytes; what that pass finds is
/// handed to the reader of the second pass, which emits it (its style sheets) before the first
/// cue and never again. Every format runs the two passes the same way (see `TrackSource` in
/// CueKitConversion), so no caller needs to know which formats need them.
///
/// ```swift
/// var prescanner = SubRipReader.prescanner(options: options)
/// try prescanner.feed(bytes)
/// var reader = SubRipReader(options: options, prescan: try prescanner.finish())
/// try reader.feed(bytes) { event in ... }
/// try reader.finish { event in ... }
/// ```
public protocol PrescanningTrackReader: TrackReader {
    /// The reader's options.
    associatedtype Options
    /// What the first pass finds, handed to the reader of the second.
    associatedtype Prescan: Sendable
    /// The first pass.
    associatedtype Prescanner: TrackPrescanner where Prescanner.Prescan == Prescan

    /// A first pass for a reader with these options.
    static func prescanner(options: Options) -> Prescanner

    /// The second pass: a reader that knows what the first pass found.
    init(options: Options, prescan: Prescan)
}

/// The first pass of a two-pass read: bytes in, in chunks of any size, one finding at the end.
///
/// A prescanner reports no diagnostics (the second pass does) and never throws for bad input:
/// what it cannot make sense of, it leaves to the second pass.
public protocol TrackPrescanner {
    /// What the pass finds.
    associatedtype Prescan: Sendable

    /// Looks at the next bytes of input.
    mutating func feed(_ chunk: UnsafeRawBufferPointer)

    /// True once the pass knows that the rest of the input cannot change its finding, so the
    /// caller may stop feeding it (a TTML document whose body holds no style attribute, say).
    var isComplete: Bool { get }

    /// Marks the end of input and returns the finding.
    mutating func finish() -> Prescan
}

extension TrackPrescanner {
    /// By default a prescanner reads to the end of input.
    public var isComplete: Bool { false }

    /// Looks at the next bytes of input, from any byte collection.
    public mutating func feed(_ bytes: some Collection<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ feed(UnsafeRawBufferPointer($0)) }) != nil { return }
        Array(bytes).withUnsafeBytes { feed($0) }
    }
}
