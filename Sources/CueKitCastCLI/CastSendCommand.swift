import ArgumentParser
import CueKit
import CueKitCast
import CueKitCastSender
import CueKitCommandSupport
import Foundation

struct CastSendCommand: ParsableCommand {
    static let configuration = CastSendOptions.command

    @OptionGroup var options: CastSendOptions

    func run() throws {
        let file = options.file
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
        let url = options.to
        let timeout = options.timeout
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
