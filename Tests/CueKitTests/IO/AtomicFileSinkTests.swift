import CueKit
import CueKitTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Serialized: the sinks' temporaries are counted in the process-wide registry.
@Suite(.serialized) struct AtomicFileSinkTests {
    @Test func commitReplacesTheDestinationAndLeavesNothingElse() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("old", to: "out.vtt")
        let sink = try AtomicFileSink(path: directory.file("out.vtt"))
        try sink.write("WEBVTT\n")
        #expect(directory.read("out.vtt") == "old", "the destination is untouched until commit")
        #expect(directory.names.count == 2, "the temporary file sits beside the destination: \(directory.names)")
        try sink.commit()
        #expect(sink.isCommitted)
        #expect(directory.read("out.vtt") == "WEBVTT\n")
        #expect(directory.names == ["out.vtt"])
    }

    @Test func releasingWithoutCommitLeavesTheDestinationAsItWas() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("old", to: "out.vtt")
        do {
            let sink = try AtomicFileSink(path: directory.file("out.vtt"))
            try sink.write("half a fi")
            try sink.flush()
            #expect(TemporaryFiles.paths.contains(sink.temporaryPath ?? ""))
        }
        #expect(directory.read("out.vtt") == "old")
        #expect(directory.names == ["out.vtt"])
    }

    @Test func discardingANewFileLeavesNoFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let sink = try AtomicFileSink(path: directory.file("new.vtt"))
        try sink.write("x")
        sink.discard()
        sink.discard()
        #expect(directory.names.isEmpty)
        #expect(throws: WriteError.self) { try sink.write("more") }
        #expect(throws: WriteError.self) { try sink.commit() }
    }

    @Test func aMissingFolderFailsAtOnceNamingTheFile() {
        let path = "/tmp/cuekit-no-such-folder/sub/out.vtt"
        #expect {
            _ = try AtomicFileSink(path: path)
        } throws: { error in
            let error = error as? WriteError
            return error?.path == path && error?.systemError == ENOENT
                && error?.message == "cannot write '\(path)': No such file or directory"
        }
    }

    @Test func aFolderIsNotADestination() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        #expect {
            _ = try AtomicFileSink(path: directory.path)
        } throws: { error in
            (error as? WriteError)?.message == "cannot write '\(directory.path)': Is a directory"
        }
    }

    @Test(.enabled(if: TestPaths.exists("/dev/full"), "/dev/full not present"))
    func aFullDeviceIsAClearError() throws {
        let sink = try AtomicFileSink(path: "/dev/full")
        #expect(sink.temporaryPath == nil, "a device is written directly, never renamed over")
        try sink.write("WEBVTT\n")
        #expect {
            try sink.commit()
        } throws: { error in
            (error as? WriteError)?.message == "cannot write '/dev/full': No space left on device"
        }
    }

    @Test func removeAllCleansUpAndTheSinkNeverTouchesItsDestination() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("old", to: "out.vtt")
        let sink = try AtomicFileSink(path: directory.file("out.vtt"))
        try sink.write("new")
        let temporary = try #require(sink.temporaryPath)
        #expect(TemporaryFiles.paths.contains(temporary))
        // Only this test's folder: the process-wide removal would take other tests' files too.
        #expect(TemporaryFiles.removeAll(in: directory.path) == 1)
        #expect(!TemporaryFiles.paths.contains(temporary))
        #expect(directory.names == ["out.vtt"])
        #expect(throws: WriteError.self) { try sink.commit() }
        #expect(directory.read("out.vtt") == "old")
    }

    @Test(.enabled(if: getuid() != 0, "root may replace a read-only file"))
    func refusesToReplaceAReadOnlyFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("old", to: "out.vtt")
        chmod(directory.file("out.vtt"), 0o444)
        #expect {
            _ = try AtomicFileSink(path: directory.file("out.vtt"))
        } throws: { error in
            (error as? WriteError)?.message == "cannot write '\(directory.file("out.vtt"))': Permission denied"
        }
        #expect(directory.read("out.vtt") == "old")
        #expect(directory.names == ["out.vtt"])
    }

    @Test func keepsTheModeOfTheFileItReplaces() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("old", to: "out.vtt")
        chmod(directory.file("out.vtt"), 0o640)
        let sink = try AtomicFileSink(path: directory.file("out.vtt"))
        try sink.write("new")
        try sink.commit()
        var status = stat()
        stat(directory.file("out.vtt"), &status)
        #expect(status.st_mode & 0o777 == 0o640)
    }

    @Test func writesThroughASymbolicLink() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("old", to: "target.vtt")
        symlink(directory.file("target.vtt"), directory.file("link.vtt"))
        let sink = try AtomicFileSink(path: directory.file("link.vtt"))
        try sink.write("new")
        try sink.commit()
        #expect(directory.read("target.vtt") == "new")
        var status = stat()
        lstat(directory.file("link.vtt"), &status)
        #expect(status.st_mode & S_IFMT == S_IFLNK, "the link is still a link")
    }
}
