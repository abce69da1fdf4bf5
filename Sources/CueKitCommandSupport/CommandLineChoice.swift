import ArgumentParser

/// An option's value chosen from a fixed list of names, the raw values of an enum.
///
/// The argument parser's defaults describe such a value with `"\(self)"`, which reflects on the
/// enum (looking up the protocols it might print through) for each such option at every start of
/// the command; its raw value says the same, and the help reads the same. (About 0.5 million
/// instructions of `convert`'s 28 million of start-up.)
package protocol CommandLineChoice: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension CommandLineChoice {
    package var defaultValueDescription: String { rawValue }
    package static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
