import Testing

@testable import CueKitServer

/// The steps of a stop, without a server: a signal asks, a second signal or the end of the grace
/// forces, and only the server's end (or a forced stop that waited) finishes the run.
@Suite struct StopProgressTests {
    @Test func aSecondSignalForcesTheStopAndTheEndOfTheGraceDoesNotForceItTwice() {
        var stop = StopProgress()
        guard case .stopGracefully = stop.next(.signal) else { Issue.record("the first signal did not ask for a stop"); return }
        #expect(!stop.forced)
        guard case .force = stop.next(.signal) else { Issue.record("the second signal did not force the stop"); return }
        #expect(stop.forced)
        guard case .none = stop.next(.graceOver) else { Issue.record("the stop was forced twice"); return }
        guard case .finish(nil) = stop.next(.abandon) else { Issue.record("a forced stop that waited did not finish"); return }
    }

    @Test func theEndOfTheGraceForcesTheStopAndTheServersEndFinishesIt() {
        var stop = StopProgress()
        _ = stop.next(.signal)
        guard case .force = stop.next(.graceOver) else { Issue.record("the end of the grace did not force the stop"); return }
        guard case .none = stop.next(.signal) else { Issue.record("a signal after the forced stop forced it again"); return }
        struct Failed: Error {}
        guard case .finish(let error) = stop.next(.ended(Failed())) else { Issue.record("the server's end did not finish the run"); return }
        #expect(error is Failed)
    }
}
