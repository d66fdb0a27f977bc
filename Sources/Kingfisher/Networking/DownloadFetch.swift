// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The network part of one download: sends the request through the transport, follows redirects
/// (through the redirect handler, up to the limit), validates the status and the delegate's
/// disposition, enforces the size limit and the idle timeout, streams progress, measures, and
/// reports exactly once.
///
/// It runs on the transport's callbacks: no task and no thread hop per download unless a
/// delegate, redirect handler or authentication responder has to be awaited (on
/// ``OffPoolExecutor``, never on the cooperative pool).
final class DownloadFetch: IdleTimed {
    /// What came back, for a successful fetch.
    struct Body: Sendable {
        var data: Data
        var response: TransportResponse
        var metrics: NetworkMetrics
    }

    private struct State {
        var request: URLRequest
        /// Numbers the exchanges, so that a late call from an abandoned one is ignored.
        var generation = 0
        var exchange: (any TransportExchange)?
        var head: TransportResponse?
        /// Where the current response redirects to, when it is a followable redirect.
        var redirectTarget: URL?
        var body = Data()
        var expected: Int64 = -1
        /// The kept start of the body this exchange asked the rest of, if it resumes one.
        var resumed: ResumableDataStore.Entry?
        /// Why this fetch stopped the current exchange, when it did.
        var stop: KingfisherError?
        var redirects = 0
        /// Whether a `401` has been answered with credentials (only once).
        var authenticated = false
        /// Waiting for the caller's code (delegate, redirect handler, authentication responder):
        /// not network idleness, so the idle timeout waits (the duration limit does not).
        var awaitingCaller = false
        var firstByte: Duration?
        /// The current body's JPEG scans, followed while a caller wants progressive previews.
        var scans: JPEGScanTracker?
        /// When the current exchange was sent.
        var exchangeStarted = ContinuousClock.now
        var lastActivity = ContinuousClock.now
        var cancelled = false
        var timedOut = false
        var ended = false
    }

    /// The most of a redirect's body read (and dropped) before the connection is given up.
    private static let redirectBodyAllowance = 64 * 1024

    private let operation: DownloadOperation
    private let downloader: ImageDownloader
    private let limit: Int
    private let started = ContinuousClock.now
    private let state: Locked<State>
    /// Seconds without progress (a response head or a body chunk) before the fetch fails.
    private let idleTimeout: TimeInterval
    /// Seconds from the start before the fetch fails however it progresses; 0 or less: none.
    private let durationLimit: TimeInterval

    /// Reports progress and the outcome to `operation`.
    init(operation: DownloadOperation, downloader: ImageDownloader) {
        self.operation = operation
        self.downloader = downloader
        limit = downloader.maxResponseDataSize
        state = Locked(State(request: operation.request))
        idleTimeout = operation.request.timeoutInterval > 0 ? operation.request.timeoutInterval : downloader.downloadTimeout
        durationLimit = downloader.maxDownloadDuration
    }

    func start() {
        IdleWatchdog.shared.watch(self)
        send(
            state.withLock { state in
                state.lastActivity = .now
                return state.request
            })
    }

    func checkIdle(now: ContinuousClock.Instant) {
        let overDuration = durationLimit > 0 && (now - started).seconds >= durationLimit
        let expired = state.withLock { state in
            !state.ended && !state.timedOut
                && (overDuration || (!state.awaitingCaller && (now - state.lastActivity).seconds >= idleTimeout))
        }
        if expired { timeOut() }
    }

    /// Stops the fetch quietly: its caller has gone.
    func cancel() {
        interrupt { $0.cancelled = true }
    }

    private func timeOut() {
        interrupt { $0.timedOut = true }
    }

    /// Marks the fetch with `mark` (cancelled or timed out) and stops its exchange. Between
    /// exchanges, while a redirect handler or an authentication responder works, no exchange will
    /// end the fetch: it ends now (what the caller's code returns later is dropped, as the next
    /// send sees the fetch ended). Otherwise the next send sees the mark.
    private func interrupt(_ mark: (inout State) -> Void) {
        let (exchange, waitingForCaller) = state.withLock { state -> ((any TransportExchange)?, Bool) in
            mark(&state)
            return (state.exchange, state.exchange == nil && state.awaitingCaller)
        }
        exchange?.cancel()
        if waitingForCaller { endInterrupted() }
    }

    // MARK: Exchanges

    private func send(_ request: URLRequest) {
        // A plain GET whose earlier attempt broke asks only for the rest.
        let resumed =
            (request.httpMethod ?? "GET") == "GET" && request.value(forHTTPHeaderField: "Range") == nil
                && request.value(forHTTPHeaderField: "If-None-Match") == nil
            ? request.url.flatMap { downloader.resumableData.take(for: $0) } : nil
        let generation = state.withLock { state -> Int? in
            guard !state.ended, !state.cancelled, !state.timedOut else { return nil }
            state.generation += 1
            state.awaitingCaller = false
            state.lastActivity = .now
            state.exchangeStarted = .now
            state.request = request
            state.head = nil
            state.redirectTarget = nil
            state.body = Data()
            state.scans = nil
            state.expected = -1
            state.resumed = resumed
            state.stop = nil
            return state.generation
        }
        guard let generation else { return endInterrupted() }
        let trusted = request.url?.host.map { downloader.trustedHosts?.contains($0) == true } ?? false
        let sent = resumed.map { ResumableDataStore.resuming(request, after: $0) } ?? request
        let exchange = downloader.transport.startExchange(
            sent, acceptingUntrustedCertificates: trusted,
            receiver: Receiver(fetch: self, generation: generation))
        let stopNow = state.withLock { state -> Bool in
            guard state.generation == generation, !state.ended else { return false }
            state.exchange = exchange
            return state.cancelled || state.timedOut
        }
        if stopNow { exchange.cancel() }
    }

    /// Forwards one exchange's events, tagged with its generation.
    private struct Receiver: TransportExchangeReceiver {
        let fetch: DownloadFetch
        let generation: Int

        func didReceiveResponse(_ response: TransportResponse, proceed: @escaping @Sendable (Bool) -> Void) {
            fetch.received(response, generation: generation, proceed: proceed)
        }

        func didReceiveData(_ bytes: UnsafeRawBufferPointer) -> Bool {
            fetch.received(bytes, generation: generation)
        }

        func didComplete(with error: (any Error)?) {
            fetch.completed(generation: generation, error: error)
        }
    }

    private func received(_ response: TransportResponse, generation: Int, proceed: @escaping @Sendable (Bool) -> Void) {
        let now = ContinuousClock.now
        let target = Self.redirectTarget(of: response)
        // Everything decided before the one lock: the delegate is read once.
        let delegate = target == nil ? downloader.delegate : nil
        let expected = response.expectedContentLength
        let refusal = target == nil ? refusal(of: response, expected: expected, delegate: delegate) : nil
        let (current, refused) = state.withLock { state -> (Bool, Bool) in
            guard state.generation == generation, !state.ended else { return (false, false) }
            state.lastActivity = now
            state.head = response
            state.redirectTarget = target
            if state.firstByte == nil { state.firstByte = now - started }
            var refusal = refusal
            var expected = expected
            if refusal == nil, target == nil, let resumed = state.resumed {
                if ResumableDataStore.continues(resumed, with: response) {
                    // The rest follows what was kept: the body starts with it.
                    state.body = resumed.data
                    if expected >= 0 { expected += Int64(resumed.data.count) }
                } else if response.statusCode == 206 {
                    let range = response.value(forHTTPHeaderField: "Content-Range")
                    refusal = .responseError(
                        reason: .URLSessionError(
                            error: DownloadFailure(
                                .misplacedRange(contentRange: range, expectedStart: resumed.data.count), url: response.url
                            )
                            .urlError))
                } else {
                    // Anything else (a 200: the image changed) starts over.
                    state.resumed = nil
                }
            }
            if let refusal {
                state.stop = refusal
            } else if target == nil {
                state.expected = expected
                if expected > 0 { state.body.reserveCapacity(Int(expected)) }
            }
            return (true, refusal != nil)
        }
        guard current else { return proceed(false) }
        // A redirect's (small) body is read and dropped, so its connection can be reused.
        if target != nil { return proceed(true) }
        if refused { return proceed(false) }
        guard let delegate else { return proceed(true) }
        let downloader = self.downloader
        awaitCaller {
            let head = response.httpURLResponse
            let allowed = await delegate.imageDownloader(downloader, didReceive: head) == .allow
            self.state.withLock { state in
                state.awaitingCaller = false
                state.lastActivity = .now
                if !allowed { state.stop = .responseError(reason: .cancelledByDelegate(response: head)) }
            }
            proceed(allowed)
        }
    }

    /// Why the response head is not acceptable: an invalid status (delegate, default
    /// 200..<400) or an announced length over the limit.
    private func refusal(
        of response: TransportResponse, expected: Int64,
        delegate: (any ImageDownloaderDelegate)?
    ) -> KingfisherError? {
        let code = response.statusCode
        let valid = delegate?.isValidStatusCode(code, for: downloader) ?? (200..<400).contains(code)
        guard valid else { return .responseError(reason: .invalidHTTPStatusCode(response: response.httpURLResponse)) }
        if expected > Int64(limit) {
            return .responseTooLarge(url: response.url, limit: limit, received: expected)
        }
        return nil
    }

    private func received(_ bytes: UnsafeRawBufferPointer, generation: Int) -> Bool {
        let now = ContinuousClock.now
        enum Step {
            case ignore, keepGoing, stop
            case progressed(received: Int64, expected: Int64, scans: ProgressivePreviewer.Scans?)
        }
        let limit = self.limit
        let followsScans = operation.wantsProgressiveScans
        let step = state.withLock { state -> Step in
            guard state.generation == generation, !state.ended else { return .ignore }
            state.lastActivity = now
            let total = state.body.count + bytes.count
            if state.redirectTarget != nil {
                return total > Self.redirectBodyAllowance ? .stop : .keepGoing
            }
            guard total <= limit else {
                state.stop = .responseTooLarge(url: state.request.url ?? operation.url, limit: limit, received: Int64(total))
                return .stop
            }
            state.body.append(contentsOf: bytes)
            let scans = followsScans ? Self.newScans(in: &state) : nil
            return .progressed(received: Int64(total), expected: state.expected, scans: scans)
        }
        switch step {
        case .ignore, .stop: return false
        case .keepGoing: return true
        case .progressed(let received, let expected, let scans):
            operation.reportProgress(received: received, expected: expected)
            if let scans { operation.receivedScans(scans) }
            return true
        }
    }

    /// The complete scans of a progressive JPEG body when a new one has started since the last
    /// call: the bytes before the newest scan, holding every scan before it.
    private static func newScans(in state: inout State) -> ProgressivePreviewer.Scans? {
        var tracker = state.scans ?? JPEGScanTracker()
        let before = tracker.scanStarts.count
        tracker.advance(over: state.body)
        state.scans = tracker
        guard tracker.isProgressive == true, tracker.scanStarts.count > before, tracker.scanStarts.count >= 2,
            let start = tracker.scanStarts.last
        else { return nil }
        return ProgressivePreviewer.Scans(
            prefix: Data(state.body.prefix(start)), count: tracker.scanStarts.count,
            width: tracker.width, height: tracker.height)
    }

    private func completed(generation: Int, error: (any Error)?) {
        let snapshot = state.withLock { state -> State? in
            guard state.generation == generation, !state.ended else { return nil }
            state.exchange = nil
            return state
        }
        guard let snapshot else { return }
        if snapshot.timedOut || snapshot.cancelled { return endInterrupted() }
        if let head = snapshot.head, head.statusCode == 401, !snapshot.authenticated,
            let responder = downloader.authenticationChallengeResponder
        {
            return authenticate(snapshot.request, challengedBy: head, responder: responder)
        }
        if let stop = snapshot.stop { return end(.failure(stop)) }
        // A redirect is followed even when its dropped body was cut short.
        if let target = snapshot.redirectTarget, let head = snapshot.head {
            return redirect(to: target, from: head, request: snapshot.request, count: snapshot.redirects)
        }
        if let error {
            keepPartialBody(of: snapshot)
            let broken =
                snapshot.head == nil
                ? error
                : TransportErrorText.midBody(error, received: snapshot.body.count, expected: snapshot.expected)
            return end(.failure(.responseError(reason: .URLSessionError(error: broken))))
        }
        guard let head = snapshot.head else {
            return end(.failure(.responseError(reason: .noURLResponse(task: operation.representativeTask))))
        }
        let now = ContinuousClock.now
        let total = now - started
        let metrics = NetworkMetrics(
            retrieveImageDuration: (now - snapshot.exchangeStarted).seconds, totalRequestDuration: total.seconds,
            timeToFirstByte: (snapshot.firstByte ?? total).seconds,
            requestBodyBytesSent: Int64(snapshot.request.httpBody?.count ?? 0),
            responseBodyBytesReceived: Int64(snapshot.body.count), httpStatusCode: head.statusCode,
            redirectCount: snapshot.redirects)
        end(.success(Body(data: snapshot.body, response: head, metrics: metrics)))
    }

    /// Runs `work`, which awaits the caller's code, with the idle timeout held until the next
    /// exchange starts (or `work` says otherwise). It runs on ``OffPoolExecutor``: a cooperative
    /// pool held by other work would otherwise leave the caller's code unstarted until the
    /// duration limit ends the download.
    private func awaitCaller(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { $0.awaitingCaller = true }
        OffPoolExecutor.task { await work() }
    }

    // MARK: Authentication

    /// Asks `responder` to answer a `401`; sends `request` again with its credential, or fails
    /// with the `401`.
    private func authenticate(
        _ request: URLRequest, challengedBy head: TransportResponse,
        responder: any AuthenticationChallengeResponsible
    ) {
        state.withLock { $0.authenticated = true }
        let downloader = self.downloader
        let task = operation.representativeTask
        awaitCaller { [self] in
            let answer = await responder.downloader(downloader, task: task, didReceive: HTTPAuthentication.challenge(of: head))
            guard let authorization = HTTPAuthentication.authorization(for: answer) else {
                return end(.failure(.responseError(reason: .invalidHTTPStatusCode(response: head.httpURLResponse))))
            }
            var authorized = request
            authorized.setValue(authorization, forHTTPHeaderField: "Authorization")
            send(authorized)
        }
    }

    // MARK: Redirects

    private func redirect(to target: URL, from response: TransportResponse, request: URLRequest, count: Int) {
        // A loop ends here too: it keeps redirecting until the limit.
        guard count < downloader.redirectLimit else {
            return end(.failure(.tooManyRedirects(url: operation.url, limit: downloader.redirectLimit)))
        }
        state.withLock { $0.redirects = count + 1 }
        var next = request
        next.url = target
        if [301, 302, 303].contains(response.statusCode), request.httpMethod != "GET" {
            next.httpMethod = "GET"
            next.httpBody = nil
        }
        guard let handler = operation.callerOptions?.redirectHandler else { return send(next) }
        let task = operation.representativeTask
        awaitCaller { [self, next] in
            let head = response.httpURLResponse
            if let policy = handler as? any ImageDownloadRedirectPolicy, let why = await policy.refusal(ofRedirectTo: target, from: head) {
                return end(.failure(.redirectRefused(url: operation.url, target: target, because: why)))
            }
            // A declined redirect leaves the 3xx as the answer, and it holds no image.
            guard let handled = await handler.handleHTTPRedirection(for: task, response: head, newRequest: next) else {
                return end(.failure(.responseError(reason: .invalidHTTPStatusCode(response: head))))
            }
            guard Self.isFollowable(handled.url) else {
                return end(.failure(.requestError(reason: .invalidURL(request: handled))))
            }
            send(handled)
        }
    }

    /// The URL a 3xx response redirects to, when it has a Location that resolves to an http(s)
    /// URL with a host; redirects elsewhere (`unix:`, `file:`, …) are not followed.
    static func redirectTarget(of response: TransportResponse) -> URL? {
        guard (300..<400).contains(response.statusCode),
            let location = response.value(forHTTPHeaderField: "Location"),
            let target = URL(string: location, relativeTo: response.url)?.absoluteURL,
            isFollowable(target)
        else { return nil }
        return target
    }

    /// Whether the downloader fetches `url`: http or https with a host.
    static func isFollowable(_ url: URL?) -> Bool {
        guard let url, let scheme = url.scheme?.lowercased() else { return false }
        return (scheme == "http" || scheme == "https") && url.host != nil
    }

    // MARK: Ending

    /// Ends a fetch that was timed out (failing it) or cancelled (quietly: nobody waits).
    private func endInterrupted() {
        let (timeout, snapshot) = state.withLock { state -> (URLError?, State?) in
            guard state.timedOut, !state.ended else { return (nil, nil) }
            return (
                timeoutError(
                    url: state.request.url ?? operation.url, headReceived: state.head != nil,
                    bodyBytes: state.body.count, idle: ContinuousClock.now - state.lastActivity), state
            )
        }
        if let snapshot { keepPartialBody(of: snapshot) }
        end(timeout.map { .failure(.responseError(reason: .URLSessionError(error: $0))) })
    }

    /// Keeps the body of an exchange that broke after some bytes, so that a retry resumes it.
    private func keepPartialBody(of snapshot: State) {
        guard let head = snapshot.head, snapshot.redirectTarget == nil, snapshot.stop == nil, let url = snapshot.request.url else { return }
        downloader.resumableData.keep(snapshot.body, of: head, for: url, resumedValidator: snapshot.resumed?.validator)
    }

    /// A `timedOut` URLError (as URLSession gives) carrying which limit ended the fetch and how
    /// far it had got.
    private func timeoutError(url: URL, headReceived: Bool, bodyBytes: Int, idle: Duration) -> URLError {
        let elapsed = (ContinuousClock.now - started).seconds
        let limit: DownloadFailure.Timeout.Limit =
            durationLimit > 0 && elapsed >= durationLimit
            ? .duration(limit: durationLimit) : .idle(limit: idleTimeout, idle: idle.seconds)
        let timeout = DownloadFailure.Timeout(limit: limit, elapsed: elapsed, headReceived: headReceived, bodyBytes: bodyBytes)
        return DownloadFailure(.timedOut(timeout), url: url).urlError
    }

    private func end(_ result: Result<Body, KingfisherError>?) {
        let first = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            state.ended = true
            state.exchange = nil
            state.body = Data()
            return true
        }
        guard first else { return }
        IdleWatchdog.shared.unwatch(self)
        // nil: cancelled, and nobody waits for the outcome.
        if let result { operation.fetchEnded(result) }
    }
}
