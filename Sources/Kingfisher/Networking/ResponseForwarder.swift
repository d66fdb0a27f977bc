// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// Hands AsyncHTTPClient's event-loop callbacks for one request to a transport receiver, with
/// no hop in between once the receiver has decided on the response head.
///
/// The head is accepted at once and the body parts that arrive before the receiver decides are
/// held here (up to ``heldLimit`` bytes, then the connection is paused): AsyncHTTPClient drops
/// the parts it holds itself when the connection fails, so a body cut short would otherwise be
/// reported as "0 bytes received". The completion, too, waits for the decision and the held
/// parts. Everything but ``decide(_:task:)``'s caller runs on the task's event loop, and the
/// decision hops there, so the receiver never hears two calls at once.
final class ResponseForwarder: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    /// Bytes of body held while the receiver decides; more wait in the connection.
    static let heldLimit = 1 << 20

    private struct Stopped: Error {}

    private struct State {
        /// The receiver's answer to the head: `nil` until it gives one.
        var decision: Bool?
        var held: [ByteBuffer] = []
        var heldBytes = 0
        /// The read paused at ``heldLimit``, resumed by the decision.
        var paused: EventLoopPromise<Void>?
        /// The request's end, reported once the decision and the held parts are through.
        var ending: (result: Result<Void, any Error>, report: @Sendable (Result<Void, any Error>) -> Void)?
    }

    let url: URL
    let receiver: any TransportExchangeReceiver
    /// Whether a forward proxy answers first (a plain http request it forwards), so that its own
    /// `407` is the proxy's refusal, as it is for a tunnel, not the origin's answer.
    private let answeredByProxy: Bool
    private let responded = Atomic(false)
    private let state = Locked(State())

    init(url: URL, receiver: any TransportExchangeReceiver, answeredByProxy: Bool) {
        self.url = url
        self.receiver = receiver
        self.answeredByProxy = answeredByProxy
    }

    /// Whether a response head arrived (after which the request is never sent again).
    var receivedResponse: Bool { responded.load(ordering: .acquiring) }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if answeredByProxy, head.status == .proxyAuthenticationRequired {
            return task.eventLoop.makeFailedFuture(HTTPClientError.proxyAuthenticationRequired)
        }
        responded.store(true, ordering: .releasing)
        let response = TransportResponse(
            url: url, statusCode: Int(head.status.code),
            httpVersion: "HTTP/\(head.version.major).\(head.version.minor)",
            headerFields: head.headers.map { ($0.name, $0.value) })
        let loop = task.eventLoop
        receiver.didReceiveResponse(response) { [self] proceed in
            if loop.inEventLoop {
                decide(proceed, task: task)
            } else {
                loop.execute { self.decide(proceed, task: task) }
            }
        }
        return loop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let loop = task.eventLoop
        let held: EventLoopFuture<Void>?? = state.withLock { state in
            guard state.decision == nil else { return .none }
            state.held.append(buffer)
            state.heldBytes += buffer.readableBytes
            guard state.heldBytes >= Self.heldLimit else { return .some(nil) }
            let paused = loop.makePromise(of: Void.self)
            state.paused = paused
            return .some(paused.futureResult)
        }
        if let held { return held ?? loop.makeSucceededVoidFuture() }
        let going = state.withLock { $0.decision } == true && deliver(buffer)
        return going ? loop.makeSucceededVoidFuture() : loop.makeFailedFuture(Stopped())
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {}

    /// Reports the request's end through `report`: at once, or once the receiver has decided on
    /// the head and taken the held parts. After the receiver stopped the exchange, a complete
    /// body still ends in an error, as the receiver expects. On the task's event loop.
    func finish(_ result: Result<Void, any Error>, report: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let now: Bool = state.withLock { state in
            guard receivedResponse, state.decision == nil else { return true }
            state.ending = (result, report)
            return false
        }
        guard now else { return }
        Self.report(result, stopped: state.withLock { $0.decision } == false, through: report)
    }

    /// Reports `result`, as an error when the receiver stopped the exchange and the body came
    /// whole all the same.
    private static func report(
        _ result: Result<Void, any Error>, stopped: Bool, through report: @Sendable (Result<Void, any Error>) -> Void
    ) {
        if stopped, case .success = result {
            report(.failure(Stopped()))
        } else {
            report(result)
        }
    }

    /// The receiver's answer to the head: hands over the held parts (or drops them), resumes
    /// the read, and reports an end that came meanwhile. On the task's event loop.
    private func decide(_ proceed: Bool, task: HTTPClient.Task<Void>) {
        let (held, paused, ending) = state.withLock { state in
            state.decision = proceed
            defer {
                state.held = []
                state.heldBytes = 0
                state.paused = nil
                state.ending = nil
            }
            return (state.held, state.paused, state.ending)
        }
        var going = proceed
        if going {
            for part in held where !deliver(part) {
                going = false
                break
            }
        }
        if !going {
            state.withLock { $0.decision = false }
            paused?.fail(Stopped())
            if ending == nil, paused == nil { task.cancel() }
        } else {
            paused?.succeed(())
        }
        if let ending { Self.report(ending.result, stopped: !going, through: ending.report) }
    }

    private func deliver(_ part: ByteBuffer) -> Bool {
        part.withUnsafeReadableBytes { receiver.didReceiveData($0) }
    }
}
