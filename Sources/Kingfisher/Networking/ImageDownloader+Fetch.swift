import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ImageDownloader {
    /// What one exchange gathered, shared with the transport's callbacks.
    private final class Exchange: Sendable {
        struct State {
            var head: HTTPURLResponse?
            var body = Data()
            var expected: Int64 = -1
            var headArrived: ContinuousClock.Instant?
        }
        let state = Mutex(State())

        func firstByte(since start: ContinuousClock.Instant) -> Duration? {
            state.withLock { $0.headArrived.map { $0 - start } }
        }
    }

    /// A stopped exchange's reason, thrown through the transport's callbacks.
    private enum Stop: Error {
        case tooLarge(received: Int64)
    }

    /// Fetches an operation's body: follows redirects (through the redirect handler, up to the
    /// limit), validates the status and the delegate's disposition, enforces the size limit and
    /// the idle timeout, streams progress, and measures.
    func fetch(_ operation: DownloadOperation,
               progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> DownloadOperation.DownloadedBody {
        let start = ContinuousClock.now
        let limit = maximumResponseDataSize
        let idleTimeout = operation.request.timeoutInterval > 0 ? operation.request.timeoutInterval : downloadTimeout
        let watchdog = IdleWatchdog(timeout: idleTimeout) { operation.cancelForTimeout() }
        var request = operation.request
        var redirects = 0
        var firstByte: Duration?
        while true {
            guard let url = request.url else { throw KingfisherError.requestError(reason: .invalidURL(request: request)) }
            let trusted = url.host.map { trustedHosts.contains($0) } ?? false
            let exchange = Exchange()
            let sending = request
            let outcome = await watchdog.run {
                try await self.transport.perform(sending, acceptingUntrustedCertificates: trusted, didReceiveResponse: { response in
                    watchdog.touch()
                    exchange.state.withLock {
                        $0.head = response
                        $0.headArrived = .now
                    }
                    if Self.redirectTarget(of: response, from: sending.url) != nil {
                        return false
                    }
                    try await self.accept(response, limit: limit)
                    exchange.state.withLock { $0.expected = response.expectedContentLength }
                    return true
                }, didReceiveData: { chunk in
                    watchdog.touch()
                    let (received, expected) = try exchange.state.withLock { state -> (Int64, Int64) in
                        guard state.body.count + chunk.count <= limit else { throw Stop.tooLarge(received: Int64(state.body.count + chunk.count)) }
                        state.body.append(contentsOf: chunk)
                        return (Int64(state.body.count), state.expected)
                    }
                    progress(received, expected)
                })
            }
            let (head, body) = exchange.state.withLock { ($0.head, $0.body) }
            if firstByte == nil, head != nil { firstByte = exchange.firstByte(since: start) }
            switch outcome {
            case .timedOut:
                throw KingfisherError.responseError(reason: .URLSessionError(error: URLError(.timedOut)))
            case .failed(Stop.tooLarge(let received)):
                throw KingfisherError.responseError(reason: .responseTooLarge(url: url, limit: limit, received: received))
            case .failed(let error as KingfisherError):
                throw error
            case .failed(let error):
                if Task.isCancelled { throw CancellationError() }
                throw KingfisherError.responseError(reason: .URLSessionError(error: error))
            case .finished:
                break
            }
            guard let response = head else { throw KingfisherError.responseError(reason: .noURLResponse(task: operation.representativeTask)) }
            if let target = Self.redirectTarget(of: response, from: url) {
                redirects += 1
                // A loop ends here too: it keeps redirecting until the limit.
                guard redirects <= redirectLimit else {
                    throw KingfisherError.responseError(reason: .tooManyRedirects(url: operation.url, limit: redirectLimit))
                }
                var next = request
                next.url = target
                if [301, 302, 303].contains(response.statusCode), request.httpMethod != "GET" {
                    next.httpMethod = "GET"
                    next.httpBody = nil
                }
                if let handler = operation.callerOptions?.redirectHandler {
                    // A declined redirect leaves the 3xx as the answer, and it holds no image.
                    guard let handled = await handler.handleHTTPRedirection(for: operation.representativeTask, response: response,
                                                                            newRequest: next) else {
                        throw KingfisherError.responseError(reason: .invalidHTTPStatusCode(response: response))
                    }
                    guard Self.isFollowable(handled.url) else {
                        throw KingfisherError.requestError(reason: .invalidURL(request: handled))
                    }
                    next = handled
                }
                request = next
                continue
            }
            return finish(body, response: response, start: start, firstByte: firstByte, redirects: redirects)
        }
    }

    /// The URL a 3xx response redirects to, when it has a Location that resolves to an http(s)
    /// URL with a host; redirects elsewhere (`unix:`, `file:`, …) are not followed.
    static func redirectTarget(of response: HTTPURLResponse, from url: URL?) -> URL? {
        guard (300..<400).contains(response.statusCode),
              let location = response.value(forHTTPHeaderField: "Location"),
              let target = URL(string: location, relativeTo: url)?.absoluteURL,
              isFollowable(target) else { return nil }
        return target
    }

    /// Whether the downloader fetches `url`: http or https with a host.
    static func isFollowable(_ url: URL?) -> Bool {
        guard let url, let scheme = url.scheme?.lowercased() else { return false }
        return ["http", "https"].contains(scheme) && url.host != nil
    }

    private func finish(_ body: Data, response: HTTPURLResponse, start: ContinuousClock.Instant, firstByte: Duration?,
                        redirects: Int) -> DownloadOperation.DownloadedBody {
        let total = ContinuousClock.now - start
        let metrics = NetworkMetrics(totalRequestDuration: total.seconds, timeToFirstByte: (firstByte ?? total).seconds,
                                     responseBodyBytesReceived: Int64(body.count), httpStatusCode: response.statusCode,
                                     redirectCount: redirects)
        return DownloadOperation.DownloadedBody(data: body, response: response, metrics: metrics)
    }

    /// Throws unless the response head is acceptable: a valid status (delegate, default
    /// 200..<400), the delegate's `.allow`, and an announced length within the limit.
    private func accept(_ response: HTTPURLResponse, limit: Int) async throws {
        let delegate = self.delegate
        let valid = delegate?.isValidStatusCode(response.statusCode, for: self) ?? (200..<400).contains(response.statusCode)
        guard valid else { throw KingfisherError.responseError(reason: .invalidHTTPStatusCode(response: response)) }
        if let delegate, await delegate.imageDownloader(self, didReceive: response) == .cancel {
            throw KingfisherError.responseError(reason: .cancelledByDelegate(response: response))
        }
        if response.expectedContentLength > Int64(limit) {
            throw Stop.tooLarge(received: response.expectedContentLength)
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}

/// Fails requests that make no progress for their timeout: the transport's head and body
/// callbacks count as progress. One timer per process checks every running request four times a
/// second, so a download costs no extra task.
final class IdleWatchdog: Sendable {
    enum Outcome {
        case finished
        case timedOut
        case failed(any Error)
    }

    private struct State {
        var lastActivity = ContinuousClock.now
        var timedOut = false
        var running = false
    }

    private let timeout: TimeInterval
    private let state = Mutex(State())
    private let cancel: @Sendable () -> Void

    /// - Parameter cancel: Cancels the task running the request (the download's own task: no
    ///   extra task per request).
    init(timeout: TimeInterval, cancel: @escaping @Sendable () -> Void) {
        self.timeout = timeout
        self.cancel = cancel
    }

    func touch() {
        state.withLock { $0.lastActivity = .now }
    }

    /// Cancels the work when idle too long; called by the shared monitor.
    fileprivate func check(now: ContinuousClock.Instant) {
        let expired = state.withLock { state -> Bool in
            guard state.running, !state.timedOut, (now - state.lastActivity).seconds >= timeout else { return false }
            state.timedOut = true
            return true
        }
        if expired { cancel() }
    }

    /// Runs `body` in the calling task, which is cancelled when idle for longer than the timeout.
    func run(_ body: () async throws -> Void) async -> Outcome {
        state.withLock {
            $0.lastActivity = .now
            $0.running = true
        }
        WatchdogMonitor.shared.add(self)
        defer {
            WatchdogMonitor.shared.remove(self)
            state.withLock { $0.running = false }
        }
        do {
            try await body()
            // A transport may stop quietly when cancelled: that is still a timeout or a cancel.
            if state.withLock({ $0.timedOut }) { return .timedOut }
            if Task.isCancelled { return .failed(CancellationError()) }
            return .finished
        } catch {
            return state.withLock { $0.timedOut } ? .timedOut : .failed(error)
        }
    }
}

/// The one timer that checks every running request's ``IdleWatchdog``.
private final class WatchdogMonitor: Sendable {
    static let shared = WatchdogMonitor()

    private let watched = Mutex<[ObjectIdentifier: IdleWatchdog]>([:])
    private let ticker = Mutex<RepeatingTimer?>(nil)

    func add(_ watchdog: IdleWatchdog) {
        watched.withLock { $0[ObjectIdentifier(watchdog)] = watchdog }
        ticker.withLock { ticker in
            if ticker == nil {
                // Its own queue at user-initiated priority: a busy machine must not starve the
                // timeouts of requests users are waiting for.
                ticker = RepeatingTimer(interval: 0.25, queue: DispatchQueue(label: "com.onevcat.Kingfisher.IdleWatchdog",
                                                                            qos: .userInitiated)) {
                    WatchdogMonitor.shared.tick()
                }
            }
        }
    }

    func remove(_ watchdog: IdleWatchdog) {
        let empty = watched.withLock { watched -> Bool in
            watched[ObjectIdentifier(watchdog)] = nil
            return watched.isEmpty
        }
        if empty {
            ticker.withLock { ticker in
                // Re-checked under the ticker lock: `add` may have raced in.
                if watched.withLock({ $0.isEmpty }) { ticker = nil }
            }
        }
    }

    private func tick() {
        let now = ContinuousClock.now
        for watchdog in watched.withLock({ Array($0.values) }) { watchdog.check(now: now) }
    }
}
