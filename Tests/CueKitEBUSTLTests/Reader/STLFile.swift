import CueKit

/// EBU-STL files the tests make: a GSI block and TTI blocks, byte by byte as Tech 3264 lays them out.
struct STLFile {
    var diskFormatCode = "STL25.01"
    /// DSC: `0` open subtitling, `1` teletext.
    var displayStandard: UInt8 = UInt8(ascii: "1")
    var characterTable = "00"
    var languageCode = "09"
    var startOfProgramme = "00000000"
    /// TNB; nil writes the number of blocks.
    var declaredBlocks: Int?
    var maximumRows = 23
    var blocks: [[UInt8]] = []

    /// A subtitle: its text field (control codes included) in as many blocks as it needs.
    struct Subtitle {
        var number: Int
        var timeIn: (Int, Int, Int, Int)
        var timeOut: (Int, Int, Int, Int)
        var text: [UInt8]
        var verticalPosition: UInt8 = 22
        var justification: UInt8 = 2
        var cumulativeStatus: UInt8 = 0
        var comment: UInt8 = 0
    }

    mutating func add(_ subtitle: Subtitle) {
        let pieces = stride(from: 0, to: max(1, subtitle.text.count), by: 112).map { Array(subtitle.text[$0..<min($0 + 112, subtitle.text.count)]) }
        for (index, piece) in pieces.enumerated() {
            var block = [UInt8](repeating: 0, count: 128)
            block[0] = 0
            block[1] = UInt8(subtitle.number & 0xFF)
            block[2] = UInt8((subtitle.number >> 8) & 0xFF)
            block[3] = index == pieces.count - 1 ? 0xFF : UInt8(index)
            block[4] = subtitle.cumulativeStatus
            block[5] = UInt8(subtitle.timeIn.0)
            block[6] = UInt8(subtitle.timeIn.1)
            block[7] = UInt8(subtitle.timeIn.2)
            block[8] = UInt8(subtitle.timeIn.3)
            block[9] = UInt8(subtitle.timeOut.0)
            block[10] = UInt8(subtitle.timeOut.1)
            block[11] = UInt8(subtitle.timeOut.2)
            block[12] = UInt8(subtitle.timeOut.3)
            block[13] = subtitle.verticalPosition
            block[14] = subtitle.justification
            block[15] = subtitle.comment
            for offset in 0..<112 { block[16 + offset] = offset < piece.count ? piece[offset] : 0x8F }
            blocks.append(block)
        }
    }

    /// A subtitle of plain text (`|` for line breaks) from `start` to `end` seconds.
    mutating func add(_ text: String, number: Int, from start: Int, to end: Int, verticalPosition: UInt8 = 22) {
        let bytes = Array(text.utf8).map { $0 == UInt8(ascii: "|") ? 0x8A : $0 }
        add(Subtitle(number: number, timeIn: (0, start / 60, start % 60, 0), timeOut: (0, end / 60, end % 60, 0), text: bytes, verticalPosition: verticalPosition))
    }

    var gsi: [UInt8] {
        var block = [UInt8](repeating: 0x20, count: 1024)
        func put(_ text: String, at offset: Int) {
            for (index, byte) in text.utf8.enumerated() { block[offset + index] = byte }
        }
        put("850", at: 0)
        put(diskFormatCode, at: 3)
        block[11] = displayStandard
        put(characterTable, at: 12)
        put(languageCode, at: 14)
        put("Test programme", at: 16)
        let count = declaredBlocks ?? blocks.count
        put(String(String(count).suffix(5)).leftPadded(5), at: 238)
        put(String(blocks.count).leftPadded(5), at: 243)
        put(String(maximumRows).leftPadded(2), at: 253)
        put("1", at: 255)
        put(startOfProgramme, at: 256)
        return block
    }

    var bytes: [UInt8] { gsi + blocks.joined() }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
