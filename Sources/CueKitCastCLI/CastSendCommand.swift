import ArgumentParser
import CueKit
import CueKitCast
import CueKitCastSender
import CueKitCommandSupport
import Foundation

/// `cuekit cast send --to ws://…/cast MESSAGE`: one message to a receiver, its answer printed.
struct CastSendCommand: AsyncParsableCommand {
    static let configuration = CastSendOptions.command

    @OptionGroup var options: CastSendOptions

    func run() async throws {
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
        let answer: String
        do {
            let client = try await RemoteMediaClient.connect(to: url)
            var json = request.json
            var requestID = request.requestID
            if requestID == nil, case .object(var object) = json {
                let id = client.makeRequestID()
                object["requestId"] = .number(Double(id))
                json = .object(object)
                requestID = id
            }
            let id = requestID!
            let text = json.serialized(.compact)
            let answered = try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask { try await client.send(text: text, requestID: id) }
                group.addTask {
                    try await Task.sleep(for: .seconds(timeout))
                    return nil
                }
                let first = try await group.next()!
                group.cancelAll()
                return first
            }
            await client.disconnect()
            guard let answered else { throw CommandFailure("the receiver at \(url) did not answer request \(id) within \(timeout) seconds") }
            answer = answered
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(String(describing: error))
        }
        let pretty = (try? CastJSONDocument(parsing: answer)).map { $0.value.serialized(.pretty) } ?? answer
        var standardOutput = FileDescriptorSink.standardOutput()
        try standardOutput.write(pretty + "\n")
        try standardOutput.flush()
        if case .error(let error) = CastMediaChannel.receiverMessage(from: Array(answer.utf8)) {
            throw CommandFailure("the receiver refused the message: \(error)", status: .invalidInput)
        }
    }
}
