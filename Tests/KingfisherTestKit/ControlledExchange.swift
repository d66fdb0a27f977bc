// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Testing

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One exchange a ``ControllableTransport`` started, held until the test answers it.
///
/// The test answers in one go (``respond(status:headers:body:chunkSize:)``, ``fail(_:)``) or
/// step by step (``sendHead(status:headers:)``, ``sendBody(_:)``, ``complete(with:)``), and can
/// wait for what the downloader did: ``cancelled()`` returns once the downloader called
/// ``cancel()``, ``ended()`` once the receiver heard `didComplete`.
///
/// The receiver hears the transport contract of ``ImageDownloaderTransport``: the response head
/// at most once, body chunks only after it proceeded, then `didComplete` exactly once (also after
/// a cancel, or after the receiver stopped the exchange), never two calls at once: every call is
/// made on this exchange's own serial queue.
package final class ControlledExchange: TransportExchange {
    /// How an exchange ended.
    package enum Ending: Equatable, Sendable {
        /// The whole body arrived (`didComplete(with: nil)`).
        case completed
        /// The test failed it (``fail(_:)``, ``complete(with:)`` with an error).
        case failed
        /// The downloader called ``cancel()``.
        case cancelled
        /// The receiver declined the head (`proceed(false)`) or a chunk (returned `false`).
        case stopped
    }

    /// The error the receiver hears when the exchange is cancelled or stopped.
    package static let cancellationError = URLError(.cancelled)

    private struct State {
        var headSent = false
        /// The receiver's answer to the head, once given.
        var proceed: Bool?
        var cancelRequested = false
        /// No longer counted as open by the transport.
        var closed = false
        /// `didComplete` is being or has been delivered.
        var completing = false
        var ending: Ending?
    }

    /// The request, as the downloader sent it (modifiers and redirects applied).
    package let request: URLRequest
    /// Whether the downloader let the transport accept an untrusted certificate.
    package let acceptingUntrustedCertificates: Bool
    private let receiver: any TransportExchangeReceiver
    private let queue = DispatchQueue(label: "ControlledExchange")
    private let state = WaitableState(State())
    /// Called once, when the exchange stops counting as open (cancelled or ended).
    private let onClose: @Sendable () -> Void

    package init(
        request: URLRequest, acceptingUntrustedCertificates: Bool, receiver: any TransportExchangeReceiver,
        onClose: @escaping @Sendable () -> Void
    ) {
        self.request = request
        self.acceptingUntrustedCertificates = acceptingUntrustedCertificates
        self.receiver = receiver
        self.onClose = onClose
    }

    /// The requested URL.
    package var url: URL { request.url! }

    /// Whether the downloader has cancelled the exchange.
    package var isCancelled: Bool { state.read { $0.cancelRequested } }

    /// How the exchange ended, or `nil` while it is open.
    package var ending: Ending? { state.read { $0.ending } }

    /// Returns once the downloader has cancelled the exchange (at once if it already has).
    package func cancelled() async throws {
        try await state.wait(until: { $0.cancelRequested })
    }

    /// Returns how the exchange ended, once it has.
    @discardableResult
    package func ended() async throws -> Ending {
        try await state.waitForValue { $0.ending }
    }

    // MARK: Answering in one go

    /// Sends a response head (with a Content-Length for `body` unless `headers` has one), then,
    /// if the receiver proceeds, `body` in chunks of `chunkSize` bytes, then completes. Returns at
    /// once; ``ended()`` waits for the outcome.
    package func respond(status: Int = 200, headers: [(String, String)] = [], body: Data = Data(), chunkSize: Int = 16 * 1024) {
        let fields =
            headers.contains { $0.0.lowercased() == "content-length" }
            ? headers
            : headers + [("Content-Length", "\(body.count)")]
        queue.async {
            self.deliverHead(status: status, headers: fields) { proceed in
                guard proceed else { return }
                self.queue.async {
                    var offset = 0
                    while offset < body.count {
                        let end = min(body.count, offset + max(1, chunkSize))
                        guard self.deliverChunk(body[offset..<end]) else { return }
                        offset = end
                    }
                    self.finish(error: nil, as: .completed)
                }
            }
        }
    }

    /// Responds with an image's bytes as a server would (status 200, its Content-Type).
    package func respond(withImage data: Data, contentType: String = "image/png") {
        respond(headers: [("Content-Type", contentType)], body: data)
    }

    /// Ends the exchange with `error` before or during the response, as a broken connection
    /// would. Returns at once.
    package func fail(_ error: any Error = URLError(.networkConnectionLost)) {
        queue.async { self.finish(error: error, as: .failed) }
    }

    // MARK: Answering step by step

    /// Sends a response head and returns the receiver's answer: whether it wants the body.
    /// `false` too when the exchange had already ended.
    @discardableResult
    package func sendHead(status: Int = 200, headers: [(String, String)] = []) async throws -> Bool {
        queue.async { self.deliverHead(status: status, headers: headers) { _ in } }
        return try await state.waitForValue { $0.proceed }
    }

    /// Sends one body chunk (after the head) and returns whether the receiver wants more;
    /// `false` without sending when the exchange has ended.
    @discardableResult
    package func sendBody(_ data: Data) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.deliverChunk(data[...])) }
        }
    }

    /// Ends the exchange: `nil` says the whole body arrived. Returns once the receiver has heard
    /// it (or the exchange had already ended).
    package func complete(with error: (any Error)? = nil) async {
        await withCheckedContinuation { continuation in
            queue.async {
                self.finish(error: error, as: error == nil ? .completed : .failed)
                continuation.resume()
            }
        }
    }

    // MARK: TransportExchange

    /// Called by the downloader. The receiver hears `didComplete` with an error afterwards,
    /// unless the exchange had already ended.
    package func cancel() {
        let first = state.update { state -> Bool in
            defer { state.cancelRequested = true }
            return !state.cancelRequested
        }
        guard first else { return }
        // The slot counts as free now: the downloader starts the next download at once.
        close()
        queue.async { self.finish(error: Self.cancellationError, as: .cancelled) }
    }

    /// Stops counting the exchange as open (once).
    private func close() {
        let first = state.update { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        if first { onClose() }
    }

    // MARK: Delivery, on `queue` only

    /// Sends the head unless the exchange is ending; `then` gets the receiver's answer (`false`
    /// when nothing was sent).
    private func deliverHead(status: Int, headers: [(String, String)], then: @escaping @Sendable (Bool) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        enum Step { case send, ended, twice }
        let step = state.update { state -> Step in
            if state.headSent { return .twice }
            if state.completing || state.cancelRequested {
                state.proceed = state.proceed ?? false
                return .ended
            }
            state.headSent = true
            return .send
        }
        switch step {
        case .twice:
            Issue.record("ControlledExchange: a second response head for \(url)")
            return then(false)
        case .ended:
            return then(false)
        case .send:
            break
        }
        let response = TransportResponse(
            url: url, statusCode: status, httpVersion: "HTTP/1.1",
            headerFields: headers.map { (name: $0.0, value: $0.1) })
        receiver.didReceiveResponse(response) { proceed in
            // Any thread, exactly once.
            self.state.update { $0.proceed = proceed }
            if !proceed { self.queue.async { self.finish(error: Self.cancellationError, as: .stopped) } }
            then(proceed)
        }
    }

    /// Hands one chunk to the receiver unless the exchange is ending; whether it wants more.
    private func deliverChunk(_ chunk: Data.SubSequence) -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        let open = state.read { !$0.completing && !$0.cancelRequested && $0.proceed == true }
        guard open else { return false }
        let more = chunk.withUnsafeBytes { receiver.didReceiveData($0) }
        if !more { finish(error: Self.cancellationError, as: .stopped) }
        return more
    }

    /// Delivers `didComplete` unless it was delivered already.
    private func finish(error: (any Error)?, as ending: Ending) {
        dispatchPrecondition(condition: .onQueue(queue))
        let first = state.update { state -> Bool in
            defer { state.completing = true }
            return !state.completing
        }
        guard first else { return }
        // Closed before the receiver hears it: the downloader may start the next exchange from
        // inside didComplete.
        close()
        receiver.didComplete(with: error)
        state.update { $0.ending = ending }
    }
}
