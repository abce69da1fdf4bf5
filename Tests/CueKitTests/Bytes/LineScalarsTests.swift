import CCueKitBytes
import CueKitTestSupport
import Testing

/// `cuekit_scalars_to_line_end` (32 bytes a step with AVX2 where the processor has it) and its
/// byte-by-byte reference, which machines without AVX2 run, give the same counts and line ends.
@Suite struct LineScalarsTests {
    @Test func theVectorPassAndTheReferenceAgree() {
        var random = SeededRandom(seed: 0x5CA1_A125)
        let alphabet: [UInt8] = [0x0A, 0x80, 0xBF, 0xC3, 0xE5, 0xF0, 0x41, 0x20, 0x7F]
        for round in 0..<5_000 {
            // Mostly long runs (the vector pass takes 32 bytes or more), line feeds rare.
            let length = 32 + Int(random.next() % UInt64(round % 50 == 0 ? 600 : 90))
            let bytes = (0..<length).map { _ in
                random.next() % 40 == 0 ? UInt8(0x0A) : alphabet[1 + Int(random.next() % UInt64(alphabet.count - 1))]
            }
            for from in stride(from: 0, through: length - 32, by: 7) {
                var vectorScalars = 0
                var referenceScalars = 0
                let (vectorEnd, referenceEnd) = bytes.withUnsafeBufferPointer { buffer in
                    (
                        cuekit_scalars_to_line_end(buffer.baseAddress, length, from, &vectorScalars),
                        cuekit_scalars_to_line_end_portable(buffer.baseAddress, length, from, &referenceScalars)
                    )
                }
                let end = bytes[from...].firstIndex(of: 0x0A) ?? length
                #expect(referenceEnd == end && referenceScalars == bytes[from..<end].filter { $0 & 0xC0 != 0x80 }.count)
                #expect(vectorEnd == referenceEnd && vectorScalars == referenceScalars, "\(bytes) from \(from)")
            }
        }
    }
}
