/// The document-wide parameters that give TTML's lengths a size: the cell grid
/// (`ttp:cellResolution`, TTML2 section 7.2.1) and the root container's pixel extent (`tts:extent`
/// on `tt`, TTML2 section 10.2.16.1).
struct TTMLLayoutParameters: Sendable {
    /// Columns of the cell grid: 32 unless specified.
    var cellColumns: Double = 32
    /// Rows of the cell grid: 15 unless specified.
    var cellRows: Double = 15
    /// The root container's width and height in pixels, when `tt` specifies them.
    var rootExtent: (width: Double, height: Double)?

    /// An axis of the root container.
    enum Axis {
        case horizontal, vertical
    }

    /// A length as a percentage of the root container along `axis`; nil for `em` and `%` (which
    /// are relative to something else) and for `px` without a root extent.
    func percentageOfRoot(_ length: TTMLStyleValues.Length, axis: Axis) -> Double? {
        switch length.unit {
        case .cell:
            return length.value * 100 / (axis == .vertical ? cellRows : cellColumns)
        case .pixel:
            guard let rootExtent else { return nil }
            let size = axis == .vertical ? rootExtent.height : rootExtent.width
            return size > 0 ? length.value * 100 / size : nil
        case .rootWidth:
            return axis == .horizontal ? length.value : nil
        case .rootHeight:
            return axis == .vertical ? length.value : nil
        case .percent, .em:
            return nil
        }
    }

    /// A length as CSS for a property measured along `axis` of the video (font sizes, outline
    /// thickness): cells, pixels and root units become `vh`/`vw`, which WebVTT's rendering relates
    /// to the video as TTML relates them to the root container; `em` stays `em`; `%` becomes
    /// `percent` (the caller says what a percentage is relative to). Nil when it cannot be sized.
    func css(_ length: TTMLStyleValues.Length, axis: Axis, percent: (Double) -> String) -> String? {
        switch length.unit {
        case .em:
            return TTMLStyleValues.cssNumber(length.value) + "em"
        case .percent:
            return percent(length.value)
        case .rootWidth:
            return TTMLStyleValues.cssNumber(length.value) + "vw"
        case .rootHeight:
            return TTMLStyleValues.cssNumber(length.value) + "vh"
        case .cell, .pixel:
            guard let share = percentageOfRoot(length, axis: axis) else { return nil }
            return TTMLStyleValues.cssNumber(share) + (axis == .vertical ? "vh" : "vw")
        }
    }
}
