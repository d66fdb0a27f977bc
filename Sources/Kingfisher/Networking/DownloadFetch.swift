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
/// Its decisions are a ``DownloadFetchMachine``'s: each transport event and each answer of the
/// caller's code goes to the machine, under one lock, and the fetch carries out the action it
/// returns (send, stop the exchange, ask the delegate, report, end) outside it.
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

    private let operation: DownloadOperation
    private let downloader: ImageDownloader
    private let limit: Int
    /// Every decision; the fetch carries out what it returns, outside the lock.
    private let machine: Locked<DownloadFetchMachine>
    /// Seconds without progress (a response head or a body chunk) before the fetch fails.
    private let idleTimeout: TimeInterval
    /// Seconds from the start before the fetch fails however it progresses; 0 or less: none.
    private let durationLimit: TimeInterval

    /// Reports progress and the outcome to `operation`.
    init(operation: DownloadOperation, downloader: ImageDownloader) {
        self.operation = operation
        self.downloader = downloader
        limit = downloader.maxResponseDataSize
        machine = Locked(DownloadFetchMachine(request: operation.request, now: .now))
        idleTimeout = operation.request.timeoutInterval > 0 ? operation.request.timeoutInterval : downloader.downloadTimeout
        durationLimit = downloader.maxDownloadDuration
    }

    func start() {
        IdleWatchdog.shared.watch(self)
        send(machine.withLock { $0.request })
    }

    func checkIdle(now: ContinuousClock.Instant) {
        if machine.withLock({ $0.isOverTime(now: now, idleTimeout: idleTimeout, durationLimit: durationLimit) }) {
            interrupt(.timedOut)
        }
    }

    /// Stops the fetch quietly: its caller has gone.
    func cancel() {
        interrupt(.cancelled)
    }

    private func interrupt(_ kind: DownloadFetchMachine.Interruption) {
        switch machine.withLock({ $0.interrupt(kind) }) {
        case .stopExchange(let exchange): exchange.cancel()
        case .endNow: endInterrupted()
        case .nothing: break
        }
    }

    // MARK: Exchanges

    private func send(_ request: URLRequest) {
        // A plain GET whose earlier attempt broke asks only for the rest.
        let resumed =
            (request.httpMethod ?? "GET") == "GET" && request.value(forHTTPHeaderField: "Range") == nil
                && request.value(forHTTPHeaderField: "If-None-Match") == nil
            ? request.url.flatMap { downloader.resumableData.take(for: $0) } : nil
        guard case .send(let generation) = machine.withLock({ $0.willSend(request, resumed: resumed, now: .now) }) else {
            return endInterrupted()
        }
        let trusted = request.url?.host.map { downloader.trustedHosts?.contains($0) == true } ?? false
        let sent = resumed.map { ResumableDataStore.resuming(request, after: $0) } ?? request
        let exchange = downloader.transport.startExchange(
            sent, acceptingUntrustedCertificates: trusted,
            receiver: Receiver(fetch: self, generation: generation))
        if machine.withLock({ $0.exchangeStarted(exchange, generation: generation) }) { exchange.cancel() }
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
        let target = Self.redirectTarget(of: response)
        // Decided before the lock: the delegate is read once.
        let delegate = target == nil ? downloader.delegate : nil
        let refusal = target == nil ? refusal(of: response, expected: response.expectedContentLength, delegate: delegate) : nil
        let action = machine.withLock {
            $0.receivedHead(
                response, generation: generation, redirectTarget: target, refusal: refusal, hasDelegate: delegate != nil, now: .now)
        }
        switch action {
        case .ignore, .refuse: proceed(false)
        case .readRedirectBody, .accept: proceed(true)
        case .askDelegate:
            guard let delegate else { return proceed(true) }
            let downloader = self.downloader
            OffPoolExecutor.task {
                let head = response.httpURLResponse
                let allowed = await delegate.imageDownloader(downloader, didReceive: head) == .allow
                self.machine.withLock { $0.delegateAnswered(allowed: allowed, head: head, generation: generation, now: .now) }
                proceed(allowed)
            }
        }
    }

    /// Why the response head is not acceptable: a redirect out of http(s), an invalid status
    /// (delegate, default 200..<400) or an announced length over the limit.
    private func refusal(
        of response: TransportResponse, expected: Int64,
        delegate: (any ImageDownloaderDelegate)?
    ) -> KingfisherError? {
        let code = response.statusCode
        // Not followed, and its body is no image: said as what it is, not as an empty image.
        if (300..<400).contains(code), let location = response.value(forHTTPHeaderField: "Location"),
            let target = URL(string: location, relativeTo: response.url)?.absoluteURL, !Self.isFollowable(target)
        {
            return .redirectRefused(
                url: operation.url, target: target, because: "\(target.absoluteString.prefix(200)) is not an http or https URL with a host")
        }
        let valid = delegate?.isValidStatusCode(code, for: downloader) ?? (200..<400).contains(code)
        guard valid else { return .responseError(reason: .invalidHTTPStatusCode(response: response.httpURLResponse)) }
        if expected > Int64(limit) {
            return .responseTooLarge(url: response.url, limit: limit, received: expected)
        }
        return nil
    }

    private func received(_ bytes: UnsafeRawBufferPointer, generation: Int) -> Bool {
        let followsScans = operation.wantsProgressiveScans
        let action = machine.withLock {
            $0.receivedBody(bytes, generation: generation, limit: limit, followsScans: followsScans, now: .now)
        }
        switch action {
        case .ignore, .stop: return false
        case .keepGoing: return true
        case .progressed(let received, let expected, let scans):
            operation.reportProgress(received: received, expected: expected)
            if let scans { operation.receivedScans(scans) }
            return true
        }
    }

    private func completed(generation: Int, error: (any Error)?) {
        // Read once: the machine's decision and the answer use the same responder.
        let responder = downloader.authenticationChallengeResponder
        let action = machine.withLock { $0.completed(generation: generation, error: error, canAuthenticate: responder != nil, now: .now) }
        switch action {
        case .ignore:
            return
        case .endInterrupted:
            endInterrupted()
        case .authenticate(let request, let challenge):
            // Asked only with a responder (canAuthenticate above); failing with the 401 otherwise.
            guard let responder else {
                return end(.failure(.responseError(reason: .invalidHTTPStatusCode(response: challenge.httpURLResponse))))
            }
            authenticate(request, challengedBy: challenge, responder: responder)
        case .fail(let error):
            end(.failure(error))
        case .redirect(let target, let response, let request, let count):
            redirect(to: target, from: response, request: request, count: count)
        case .broke(let error, let midBody):
            keepPartialBody()
            let broken = midBody.map { TransportErrorText.midBody(error, received: $0.received, expected: $0.expected) } ?? error
            end(.failure(.responseError(reason: .URLSessionError(error: broken))))
        case .noResponse:
            end(.failure(.responseError(reason: .noURLResponse(task: operation.representativeTask))))
        case .succeed(let data, let response, let metrics):
            end(.success(Body(data: data, response: response, metrics: metrics)))
        }
    }

    // MARK: Authentication

    /// Asks `responder` to answer a `401`; sends `request` again with its credential, or fails
    /// with the `401`. The idle timeout waits meanwhile (the duration limit does not); the
    /// responder runs on ``OffPoolExecutor``, as every caller's code the fetch awaits.
    private func authenticate(
        _ request: URLRequest, challengedBy head: TransportResponse,
        responder: any AuthenticationChallengeResponsible
    ) {
        let downloader = self.downloader
        let task = operation.representativeTask
        OffPoolExecutor.task { [self] in
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
        machine.withLock { $0.redirecting() }
        var next = request
        next.url = target
        if [301, 302, 303].contains(response.statusCode), request.httpMethod != "GET" {
            next.httpMethod = "GET"
            next.httpBody = nil
        }
        guard let handler = operation.callerOptions?.redirectHandler else { return send(next) }
        let task = operation.representativeTask
        guard machine.withLock({ $0.awaitCaller() }) else { return endInterrupted() }
        OffPoolExecutor.task { [self, next] in
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
        let now = ContinuousClock.now
        let (timeout, url) = machine.withLock {
            ($0.timeout(now: now, idleTimeout: idleTimeout, durationLimit: durationLimit), $0.request.url ?? operation.url)
        }
        if timeout != nil { keepPartialBody() }
        end(timeout.map { .failure(.responseError(reason: .URLSessionError(error: DownloadFailure(.timedOut($0), url: url).urlError))) })
    }

    /// Keeps the body of an exchange that broke after some bytes, so that a retry resumes it.
    private func keepPartialBody() {
        guard let kept = machine.withLock({ $0.keptPartialBody }) else { return }
        downloader.resumableData.keep(kept.data, of: kept.head, for: kept.url, resumedValidator: kept.validator)
    }

    private func end(_ result: Result<Body, KingfisherError>?) {
        guard machine.withLock({ $0.end() }) else { return }
        IdleWatchdog.shared.unwatch(self)
        // nil: cancelled, and nobody waits for the outcome.
        if let result { operation.fetchEnded(result) }
    }
}
