import CueKit
import CueKitTestSupport
import Testing

@Suite struct FileByteSourceTests {
    @Test func readsInFixedChunks() throws {
        let path = TestPaths.fixture("core/ten-bytes.txt")
        var sizes: [Int] = []
        var bytes: [UInt8] = []
        try FileByteSource(path: path, chunkSize: 4).forEachChunk { chunk in
            sizes.append(chunk.count)
            bytes += chunk
        }
        #expect(sizes == [4, 4, 2])
        #expect(String(decoding: bytes, as: UTF8.self) == "0123456789")
    }

    @Test func namesTheFileItCannotRead() {
        let path = TestPaths.fixture("core/does-not-exist.vtt")
        #expect {
            try FileByteSource(path: path).readAll()
        } throws: { error in
            let error = error as? ReadError
            return error?.diagnostic.code == IOFailure.readCode && error?.path == path
                && error?.description == "\(path): error: cannot read '\(path)': No such file or directory [io-read]"
        }
    }

    @Test func refusesADirectory() {
        #expect(throws: ReadError.self) { try FileByteSource(path: TestPaths.fixtures).readAll() }
    }

    @Test func memorySinkCollectsBytes() throws {
        var sink = MemorySink()
        try sink.write("WEBVTT")
        try sink.write([0x0A])
        #expect(sink.string == "WEBVTT\n")
    }
}
