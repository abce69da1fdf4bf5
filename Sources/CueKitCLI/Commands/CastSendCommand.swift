import ArgumentParser
import CueKit
import CueKitCast
import CueKitCastSender
import Foundation

struct CastSendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a Cast media message (LOAD, EDIT_TRACKS_INFO, GET_STATUS...) to a CueKit receiver and print its answer.",
        discussion: """
            The message is checked first, as cuekit cast check does; a message a receiver would refuse is not sent. \
            A message without a requestId is given one. The receiver's answer to it (MEDIA_STATUS, or an error such as \
            INVALID_REQUEST) is printed as JSON on standard output. Exit status: 0 when the receiver answered with a \
            status; 1 when the message has errors or the receiver refused it; 2 when the file cannot be read, the \
            receiver cannot be reached or does not answer in time.

            Examples:
              cuekit cast send --to ws://127.0.0.1:8000/cast load.json
              echo '{"type":"EDIT_TRACKS_INFO","activeTrackIds":[2]}' | cuekit cast send --to ws://127.0.0.1:8000/cast -
            """
    )

    @Option(help: ArgumentHelp("The receiver's sender socket.", valueName: "ws://host:port/cast"))
    var to: String

    @Argument(help: ArgumentHelp("The message ('-' for standard input).", valueName: "message.json"))
    var file: String

    @Option(help: ArgumentHelp("How long to wait for the answer, in seconds.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        guard to.hasPrefix("ws://") || to.hasPrefix("wss://") else { throw ValidationError("--to must be a ws:// or wss:// URL") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        let path = file == "-" ? "/dev/stdin" : file
        var bytes: [UInt8] = []
        do {
            try FileByteSource(path: path).forEachChunk { chunk in
                bytes.append(contentsOf: chunk)
                if bytes.count > CastMediaChannel.maximumRequestLength { throw CommandFailure("\(file) is longer than a Cast message may be (64 KiB)") }
            }
        } catch let error as ReadError {
            throw CommandFailure(error.diagnostic.message)
        }
        let request: CastMediaChannel.Request
        switch CastMediaChannel.request(from: bytes) {
        case .success(let read): request = read
        case .failure(let error):
            for diagnostic in error.diagnostics { StandardError.write(diagnostic.formatted(file: file) + "\n") }
            throw CommandFailure("\(file): \(error.message); not sent", status: .invalidInput)
        }
        let url = to
        let timeout = self.timeout
        let outcome = BlockingOutcome()
        let answerBox = AnswerBox()
        Task {
            do {
                let client = try await RemoteMediaClient.connect(to: url)
                var json = request.json
                var requestId = request.requestId
                if requestId == nil, case .object(var object) = json {
                    let id = await client.makeRequestId()
                    object["requestId"] = .number(Double(id))
                    json = .object(object)
                    requestId = id
                }
                let id = requestId!
                let text = json.serialized(.compact)
                let answer = try await withThrowingTaskGroup(of: String?.self) { group in
                    group.addTask { try await client.send(text: text, requestId: id) }
                    group.addTask {
                        try await Task.sleep(for: .seconds(timeout))
                        return nil
                    }
                    let first = try await group.next()!
                    group.cancelAll()
                    return first
                }
                await client.disconnect()
                guard let answer else {
                    outcome.finish("the receiver at \(url) did not answer request \(id) within \(timeout) seconds")
                    return
                }
                answerBox.text = answer
                outcome.finish(nil)
            } catch {
                outcome.finish(String(describing: error))
            }
        }
        if let failure = outcome.wait() { throw CommandFailure(failure) }
        let answer = answerBox.text ?? ""
        let pretty = (try? CastJSONDocument(parsing: answer)).map { $0.value.serialized(.pretty) } ?? answer
        var standardOutput = FileDescriptorSink.standardOutput()
        try standardOutput.write(pretty + "\n")
        try standardOutput.flush()
        if case .error(let error) = CastMediaChannel.receiverMessage(from: Array(answer.utf8)) {
            throw CommandFailure("the receiver refused the message: \(error)", status: .invalidInput)
        }
    }
}

/// The receiver's answer, handed from the concurrency pool to the command.
final class AnswerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    var text: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
