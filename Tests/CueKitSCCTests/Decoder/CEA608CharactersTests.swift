@testable import CueKitSCC
import CueKitQC
import Testing

/// The 608 characters three parts of CueKit name must be the same characters: what the SCC
/// reader draws, what the SCC writer can send, and what `--qc fcc-608` allows
/// (`QCCharacterSet.cea608`). A QC profile that refused a character the reader draws would fail
/// every track read from 608 captions.
@Suite struct CEA608CharactersTests {
    /// Every scalar the reader can draw: the basic set, the special and the two extended sets.
    static var drawn: Set<UInt32> {
        var scalars = Set((UInt8(0x20)...0x7F).map { CEA608Characters.basic($0).value })
        for table in [CEA608Characters.special, CEA608Characters.extendedSpanishFrench, CEA608Characters.extendedPortugueseGerman] {
            scalars.formUnion(table.map(\.value))
        }
        return scalars
    }

    /// Every scalar the QC set allows (608 has nothing past the box-drawing block).
    static var allowed: Set<UInt32> {
        Set((UInt32(0)...0x2FFF).filter { QCCharacterSet.cea608.contains($0) })
    }

    @Test func everyCharacterTheReaderDrawsIsAllowedByTheQCSet() {
        let refused = Self.drawn.subtracting(Self.allowed).sorted()
        #expect(refused.isEmpty, "drawn by the SCC reader, refused by --qc fcc-608: \(refused.map { "U+" + String($0, radix: 16, uppercase: true) })")
    }

    @Test func everyCharacterTheQCSetAllowsCanBeWrittenSaveTheBrokenBar() {
        let unwritable = Self.allowed.filter { scalar in Unicode.Scalar(scalar).flatMap(CEA608Encoding.encode) == nil }
        // Some decoders draw 0x13 0x37 as a broken bar (U+00A6), where the reader draws a
        // box-drawing bar (U+2502): the set allows both, the writer sends the reader's.
        #expect(unwritable == [0x00A6])
    }
}
