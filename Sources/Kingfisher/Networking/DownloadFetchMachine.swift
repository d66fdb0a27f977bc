// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The decisions of one download's network part, with no I/O: ``DownloadFetch`` feeds it the
/// transport's events (and the caller's answers) and carries out the actions it returns.
///
/// A fetch is in one ``Phase`` at a time: not started, in an exchange (one request and its
/// response), waiting between exchanges for the caller's code (a redirect handler or an
/// authentication responder), or ended. Exchanges are numbered: an event from an exchange that
/// is no longer the current one is ignored. Cancelling and timing out mark the fetch
/// (``Interruption``); the exchange under way is stopped, and the fetch ends once nothing can
/// end it any more.
struct DownloadFetchMachine {
    /// What stopped the fetch from outside.
    enum Interruption: Equatable {
        /// Its callers have gone: it ends quietly.
        case cancelled
        /// A time limit was reached: it fails.
        case timedOut
    }

    /// One request and what has come back for it.
    struct Exchange {
        /// Numbers the exchanges, so that a late call from an abandoned one is ignored.
        let generation: Int
        let request: URLRequest
        /// The transport's handle, once it has one.
        var handle: (any TransportExchange)?
        var head: TransportResponse?
        /// Where the response redirects to, when it is a followable redirect.
        var redirectTarget: URL?
        var body = Data()
        var expected: Int64 = -1
        /// The kept start of the body this exchange asked the rest of, if it resumes one.
        var resumed: ResumableDataStore.Entry?
        /// Why the fetch stopped this exchange, when it did.
        var stop: KingfisherError?
        /// The body's JPEG scans, followed while a caller wants progressive previews.
        var scans: JPEGScanTracker?
        /// Waiting for the delegate's answer to the response head.
        var awaitingDelegate = false
        /// Bytes of a redirect's body read (and dropped) so far.
        var redirectBodyBytes = 0
        let started: ContinuousClock.Instant
    }

    /// Where the fetch is.
    enum Phase {
        /// Not started: the first request.
        case idle(URLRequest)
        /// An exchange is under way.
        case exchanging(Exchange)
        /// Between exchanges, waiting for the caller's code (a redirect handler or an
        /// authentication responder) to say what to send next; `last` is the exchange that ended.
        case awaitingCaller(last: Exchange)
        /// Reported (or cancelled): nothing more happens.
        case ended
    }

    private(set) var phase: Phase
    private(set) var interruption: Interruption?
    /// Exchanges started so far.
    private(set) var generation = 0
    private(set) var redirects = 0
    /// Whether a `401` has been answered with credentials (only once).
    private(set) var authenticated = false
    private(set) var firstByte: Duration?
    private(set) var lastActivity: ContinuousClock.Instant
    let started: ContinuousClock.Instant

    /// The most of a redirect's body read (and dropped) before the connection is given up.
    static let redirectBodyAllowance = 64 * 1024

    init(request: URLRequest, now: ContinuousClock.Instant) {
        phase = .idle(request)
        started = now
        lastActivity = now
    }

    /// The exchange under way, or the last one while the caller's code is awaited.
    private var currentExchange: Exchange? {
        switch phase {
        case .exchanging(let exchange), .awaitingCaller(let exchange): exchange
        case .idle, .ended: nil
        }
    }

    /// The request of the current or last exchange (the first request before any).
    var request: URLRequest {
        if case .idle(let request) = phase { return request }
        return currentExchange?.request ?? URLRequest(url: URL(string: "about:blank")!)
    }

    var isEnded: Bool {
        if case .ended = phase { return true }
        return false
    }

    // MARK: Sending

    /// What to do with a request about to be sent.
    enum SendAction: Equatable {
        /// Start the exchange numbered so.
        case send(generation: Int)
        /// The fetch was interrupted (or ended) meanwhile: end it.
        case endInterrupted
    }

    /// `request` is about to go out, resuming `resumed` if given.
    mutating func willSend(_ request: URLRequest, resumed: ResumableDataStore.Entry?, now: ContinuousClock.Instant) -> SendAction {
        guard !isEnded, interruption == nil else { return .endInterrupted }
        generation += 1
        lastActivity = now
        phase = .exchanging(Exchange(generation: generation, request: request, resumed: resumed, started: now))
        return .send(generation: generation)
    }

    /// The transport started exchange `generation` with `handle`: whether to stop it at once
    /// (the fetch was interrupted while it started).
    mutating func exchangeStarted(_ handle: any TransportExchange, generation: Int) -> Bool {
        guard case .exchanging(var exchange) = phase, exchange.generation == generation else { return false }
        exchange.handle = handle
        phase = .exchanging(exchange)
        return interruption != nil
    }

    // MARK: The response head

    /// What to do with a response head.
    enum HeadAction: Equatable {
        /// Not the current exchange: refuse it.
        case ignore
        /// A redirect: read (and drop) its small body, so its connection can be reused.
        case readRedirectBody
        /// Refused (a status, a length, a misplaced range): stop the exchange.
        case refuse
        /// Ask the delegate, then proceed as it says (``delegateAnswered(allowed:head:now:)``).
        case askDelegate
        /// Accept the body.
        case accept
    }

    /// Exchange `generation` received `response`; `refusal` is why its status or length is not
    /// acceptable (checked by the caller, who reads the delegate once).
    mutating func receivedHead(
        _ response: TransportResponse, generation: Int, redirectTarget target: URL?, refusal: KingfisherError?,
        hasDelegate: Bool, now: ContinuousClock.Instant
    ) -> HeadAction {
        guard case .exchanging(var exchange) = phase, exchange.generation == generation else { return .ignore }
        lastActivity = now
        exchange.head = response
        exchange.redirectTarget = target
        if firstByte == nil { firstByte = now - started }
        var refusal = refusal
        var expected = response.expectedContentLength
        if refusal == nil, target == nil, let resumed = exchange.resumed {
            if ResumableDataStore.continues(resumed, with: response) {
                // The rest follows what was kept: the body starts with it.
                exchange.body = resumed.data
                if expected >= 0 { expected += Int64(resumed.data.count) }
            } else if response.statusCode == 206 {
                let range = response.value(forHTTPHeaderField: "Content-Range")
                refusal = .responseError(
                    reason: .URLSessionError(
                        error: DownloadFailure(.misplacedRange(contentRange: range, expectedStart: resumed.data.count), url: response.url)
                            .urlError))
            } else {
                // Anything else (a 200: the image changed) starts over.
                exchange.resumed = nil
            }
        }
        let action: HeadAction
        if target != nil {
            action = .readRedirectBody
        } else if let refusal {
            exchange.stop = refusal
            action = .refuse
        } else {
            exchange.expected = expected
            if expected > 0 { exchange.body.reserveCapacity(Int(expected)) }
            exchange.awaitingDelegate = hasDelegate
            action = hasDelegate ? .askDelegate : .accept
        }
        phase = .exchanging(exchange)
        return action
    }

    /// The delegate answered the head of exchange `generation` (a late answer for an exchange
    /// that is no longer the current one changes nothing).
    mutating func delegateAnswered(allowed: Bool, head: HTTPURLResponse, generation: Int, now: ContinuousClock.Instant) {
        guard case .exchanging(var exchange) = phase, exchange.generation == generation else { return }
        lastActivity = now
        exchange.awaitingDelegate = false
        if !allowed { exchange.stop = .responseError(reason: .cancelledByDelegate(response: head)) }
        phase = .exchanging(exchange)
    }

    // MARK: The body

    /// What to do after a chunk of the body.
    enum BodyAction {
        /// Not the current exchange: stop it.
        case ignore
        /// A redirect's body, still within its allowance: go on.
        case keepGoing
        /// Over a limit: stop the exchange.
        case stop
        /// Kept: report the progress, and the new JPEG scans when there are.
        case progressed(received: Int64, expected: Int64, scans: ProgressivePreviewer.Scans?)
    }

    /// Exchange `generation` received `bytes`; `limit` is the most body bytes allowed.
    mutating func receivedBody(
        _ bytes: UnsafeRawBufferPointer, generation: Int, limit: Int, followsScans: Bool, now: ContinuousClock.Instant
    ) -> BodyAction {
        guard case .exchanging(var exchange) = phase, exchange.generation == generation else { return .ignore }
        lastActivity = now
        if exchange.redirectTarget != nil {
            // Counted across chunks: the body is dropped, so its size is not the body's count.
            exchange.redirectBodyBytes += bytes.count
            phase = .exchanging(exchange)
            return exchange.redirectBodyBytes > Self.redirectBodyAllowance ? .stop : .keepGoing
        }
        let total = exchange.body.count + bytes.count
        guard total <= limit else {
            exchange.stop = .responseTooLarge(
                url: exchange.request.url ?? URL(string: "about:blank")!, limit: limit, received: Int64(total))
            phase = .exchanging(exchange)
            return .stop
        }
        // Out of the phase while it grows, so that the body is not copied.
        phase = .ended
        exchange.body.append(contentsOf: bytes)
        let scans = followsScans ? Self.newScans(in: &exchange) : nil
        let expected = exchange.expected
        phase = .exchanging(exchange)
        return .progressed(received: Int64(total), expected: expected, scans: scans)
    }

    /// The complete scans of a progressive JPEG body when a new one has started since the last
    /// call: the bytes before the newest scan, holding every scan before it.
    private static func newScans(in exchange: inout Exchange) -> ProgressivePreviewer.Scans? {
        var tracker = exchange.scans ?? JPEGScanTracker()
        let before = tracker.scanStarts.count
        tracker.advance(over: exchange.body)
        exchange.scans = tracker
        guard tracker.isProgressive == true, tracker.scanStarts.count > before, tracker.scanStarts.count >= 2,
            let start = tracker.scanStarts.last
        else { return nil }
        return ProgressivePreviewer.Scans(
            prefix: Data(exchange.body.prefix(start)), count: tracker.scanStarts.count,
            width: tracker.width, height: tracker.height)
    }

    // MARK: The end of an exchange

    /// What to do when an exchange ended.
    enum CompletionAction {
        /// Not the current exchange.
        case ignore
        /// The fetch was interrupted: end it (``interruptedEnd(now:)``).
        case endInterrupted
        /// A `401` to answer with credentials, once: ask the responder, then send again.
        case authenticate(request: URLRequest, challenge: TransportResponse)
        /// Stopped for a reason of the fetch's own.
        case fail(KingfisherError)
        /// Follow the redirect (the `count`th so far).
        case redirect(target: URL, response: TransportResponse, request: URLRequest, count: Int)
        /// The transport failed: after the head (`midBody`) or before it. The bytes received
        /// may be kept for a retry (``keptPartialBody``).
        case broke(any Error, midBody: (received: Int, expected: Int64)?)
        /// It ended with no response at all.
        case noResponse
        /// The body is complete.
        case succeed(Data, response: TransportResponse, metrics: NetworkMetrics)
    }

    /// Exchange `generation` ended, with `error` if the transport failed; `canAuthenticate` when
    /// an authentication responder is set.
    mutating func completed(generation: Int, error: (any Error)?, canAuthenticate: Bool, now: ContinuousClock.Instant) -> CompletionAction {
        guard case .exchanging(var exchange) = phase, exchange.generation == generation else { return .ignore }
        exchange.handle = nil
        phase = .exchanging(exchange)
        if interruption != nil { return .endInterrupted }
        if let head = exchange.head, head.statusCode == 401, !authenticated, canAuthenticate {
            authenticated = true
            // Not interrupted (checked above): the responder is awaited.
            _ = awaitCaller()
            return .authenticate(request: exchange.request, challenge: head)
        }
        if let stop = exchange.stop { return .fail(stop) }
        // A redirect is followed even when its dropped body was cut short.
        if let target = exchange.redirectTarget, let head = exchange.head {
            return .redirect(target: target, response: head, request: exchange.request, count: redirects)
        }
        if let error {
            return .broke(error, midBody: exchange.head == nil ? nil : (exchange.body.count, exchange.expected))
        }
        guard let head = exchange.head else { return .noResponse }
        let total = now - started
        let metrics = NetworkMetrics(
            retrieveImageDuration: (now - exchange.started).seconds, totalRequestDuration: total.seconds,
            timeToFirstByte: (firstByte ?? total).seconds, requestBodyBytesSent: Int64(exchange.request.httpBody?.count ?? 0),
            responseBodyBytesReceived: Int64(exchange.body.count), httpStatusCode: head.statusCode, redirectCount: redirects)
        return .succeed(exchange.body, response: head, metrics: metrics)
    }

    /// A redirect is being followed: counted, and the caller's handler may be asked.
    mutating func redirecting() {
        redirects += 1
    }

    /// The caller's code (a redirect handler, an authentication responder) is about to be
    /// awaited between exchanges: network idleness is not measured meanwhile. `false` when the
    /// fetch was interrupted since its exchange ended: end it instead (no exchange would, and a
    /// time-out is not noticed twice).
    mutating func awaitCaller() -> Bool {
        guard interruption == nil else { return false }
        if case .exchanging(let exchange) = phase { phase = .awaitingCaller(last: exchange) }
        return true
    }

    /// The body of the current (or last) exchange to keep for a retry, when it broke after its
    /// head and was neither a redirect nor stopped on purpose.
    var keptPartialBody: (data: Data, head: TransportResponse, url: URL, validator: String?)? {
        guard let exchange = currentExchange, let head = exchange.head, exchange.redirectTarget == nil, exchange.stop == nil,
            let url = exchange.request.url
        else {
            return nil
        }
        return (exchange.body, head, url, exchange.resumed?.validator)
    }

    // MARK: Interruptions

    /// What to do after an interruption.
    enum InterruptAction {
        /// Stop the exchange under way; its end ends the fetch.
        case stopExchange(any TransportExchange)
        /// No exchange will end the fetch (the caller's code is awaited): end it now.
        case endNow
        /// Nothing yet: the exchange is starting, and the start sees the mark.
        case nothing
    }

    /// Cancels or times out the fetch.
    mutating func interrupt(_ kind: Interruption) -> InterruptAction {
        if isEnded || (kind == .timedOut && interruption == .timedOut) { return .nothing }
        // A time-out stays one: the fetch fails with it even if its callers then leave.
        if interruption != .timedOut { interruption = kind }
        switch phase {
        case .exchanging(let exchange):
            return exchange.handle.map(InterruptAction.stopExchange) ?? .nothing
        case .awaitingCaller:
            return .endNow
        case .idle, .ended:
            return .nothing
        }
    }

    /// Whether the fetch is over a time limit at `now`: `durationLimit` seconds since the start
    /// (0 or less: none), or `idleTimeout` seconds without progress while it waits for the
    /// network (not for the caller's code).
    func isOverTime(now: ContinuousClock.Instant, idleTimeout: TimeInterval, durationLimit: TimeInterval) -> Bool {
        if isEnded || interruption == .timedOut { return false }
        if durationLimit > 0 && (now - started).seconds >= durationLimit { return true }
        let waitingForCaller: Bool =
            switch phase {
            case .awaitingCaller: true
            case .exchanging(let exchange): exchange.awaitingDelegate
            case .idle, .ended: false
            }
        return !waitingForCaller && (now - lastActivity).seconds >= idleTimeout
    }

    /// The failure of a timed-out fetch (`nil` when it was cancelled instead): which limit, how
    /// far it got.
    func timeout(now: ContinuousClock.Instant, idleTimeout: TimeInterval, durationLimit: TimeInterval) -> DownloadFailure.Timeout? {
        guard interruption == .timedOut, !isEnded else { return nil }
        let headReceived = currentExchange?.head != nil
        let bodyBytes = currentExchange?.body.count ?? 0
        let elapsed = (now - started).seconds
        let limit: DownloadFailure.Timeout.Limit =
            durationLimit > 0 && elapsed >= durationLimit
            ? .duration(limit: durationLimit) : .idle(limit: idleTimeout, idle: (now - lastActivity).seconds)
        return DownloadFailure.Timeout(limit: limit, elapsed: elapsed, headReceived: headReceived, bodyBytes: bodyBytes)
    }

    /// Ends the fetch: `true` the first time, `false` when it had ended already.
    mutating func end() -> Bool {
        if isEnded { return false }
        phase = .ended
        return true
    }
}
