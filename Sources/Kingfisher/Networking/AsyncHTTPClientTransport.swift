import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport, on AsyncHTTPClient: connection pooling, HTTP/2 when the server offers
/// it (ALPN), bodies handed over chunk by chunk on the event loop as they arrive, and
/// cancellation that closes the connection.
///
/// Certificates are verified, except for requests the downloader marks as going to a trusted
/// host, which use a second client that accepts self-signed certificates.
public final class AsyncHTTPClientTransport: ImageDownloaderTransport {
    /// The transport every ``ImageDownloader`` uses unless given another: up to 8 connections
    /// per host.
    public static let shared = AsyncHTTPClientTransport()

    private let verifying: HTTPClient
    private let lenient: Locked<HTTPClient?> = Locked(nil)
    private let connectionsPerHost: Int

    /// Creates a transport with its own connection pools.
    ///
    /// - Parameter maxConnectionsPerHost: HTTP/1.1 connections kept per host (HTTP/2
    ///   multiplexes on one). Default 8.
    public init(maxConnectionsPerHost: Int = 8) {
        connectionsPerHost = maxConnectionsPerHost
        verifying = HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.configuration(perHost: maxConnectionsPerHost))
    }

    deinit {
        verifying.shutdown { _ in }
        lenient.withLock { $0?.shutdown { _ in } }
    }

    private static func configuration(perHost: Int, verify: Bool = true) -> HTTPClient.Configuration {
        var configuration = verify
            ? HTTPClient.Configuration(redirectConfiguration: .disallow)
            : HTTPClient.Configuration(certificateVerification: .none, redirectConfiguration: .disallow)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: perHost)
        // AsyncHTTPClient retries a failing connection until this timeout, then reports the
        // last connection error (refused, TLS): 3 s keeps that error ahead of the downloader's
        // idle timeout (15 s by default).
        configuration.timeout = .init(connect: .seconds(3))
        configuration.httpVersion = .automatic
        configuration.decompression = .disabled
        return configuration
    }

    private func client(acceptingUntrustedCertificates: Bool) -> HTTPClient {
        guard acceptingUntrustedCertificates else { return verifying }
        return lenient.withLock { client in
            if let client { return client }
            let made = HTTPClient(eventLoopGroupProvider: .singleton,
                                  configuration: Self.configuration(perHost: connectionsPerHost, verify: false))
            client = made
            return made
        }
    }

    public func startExchange(_ request: URLRequest, acceptingUntrustedCertificates: Bool,
                              receiver: any TransportExchangeReceiver) -> any TransportExchange {
        let outgoing: HTTPClient.Request
        do {
            guard let url = request.url else { throw URLError(.badURL) }
            var headers = HTTPHeaders()
            for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
            outgoing = try HTTPClient.Request(url: url, method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
                                              headers: headers, body: request.httpBody.map { .bytes($0) })
        } catch {
            receiver.didComplete(with: error)
            return Exchange()
        }
        let exchange = Exchange()
        send(outgoing, on: client(acceptingUntrustedCertificates: acceptingUntrustedCertificates), exchange: exchange,
             receiver: receiver, retries: outgoing.method == .GET || outgoing.method == .HEAD ? 1 : 0)
        return exchange
    }

    /// Sends `outgoing`; when it fails before any response because its connection closed (a
    /// pooled connection the server closed at any moment, or right after a response it got
    /// wrong), sends it again up to `retries` times, as browsers do for idempotent requests. A
    /// server that closes every connection unanswered therefore sees each request twice.
    private func send(_ outgoing: HTTPClient.Request, on client: HTTPClient, exchange: Exchange,
                      receiver: any TransportExchangeReceiver, retries: Int) {
        let forwarder = ResponseForwarder(url: outgoing.url, receiver: receiver)
        let task = client.execute(request: outgoing, delegate: forwarder)
        exchange.run(task)
        task.futureResult.whenComplete { result in
            switch result {
            case .success:
                receiver.didComplete(with: nil)
            case .failure(let error):
                if retries > 0, !forwarder.receivedResponse, !exchange.isCancelled, Self.isClosedConnection(error) {
                    self.send(outgoing, on: client, exchange: exchange, receiver: receiver, retries: retries - 1)
                } else {
                    receiver.didComplete(with: TransportErrorText.urlError(for: error, url: outgoing.url))
                }
            }
        }
    }

    /// Whether `error` says the connection was closed under the request.
    private static func isClosedConnection(_ error: any Error) -> Bool {
        if let error = error as? ChannelError {
            return error == .ioOnClosedChannel || error == .eof || error == .outputClosed || error == .alreadyClosed
        }
        return (error as? HTTPClientError) == .remoteConnectionClosed
    }

    /// The exchange's current request (a retry replaces it); cancelling reaches whichever runs.
    private final class Exchange: TransportExchange, Sendable {
        private let state = Locked<(task: HTTPClient.Task<Void>?, cancelled: Bool)>((nil, false))

        var isCancelled: Bool { state.withLock { $0.cancelled } }

        /// Makes `task` the one a cancel reaches (cancelling it at once if the exchange already was).
        func run(_ task: HTTPClient.Task<Void>) {
            let cancelled = state.withLock { state in
                state.task = task
                return state.cancelled
            }
            if cancelled { task.cancel() }
        }

        func cancel() {
            let task = state.withLock { state in
                state.cancelled = true
                return state.task
            }
            task?.cancel()
        }
    }

    private struct Stopped: Error {}

    /// Hands AsyncHTTPClient's event-loop callbacks to the receiver, with no hop in between.
    private final class ResponseForwarder: HTTPClientResponseDelegate {
        typealias Response = Void
        let url: URL
        let receiver: any TransportExchangeReceiver
        private let responded = Atomic(false)

        /// Whether a response head arrived (after which the request is never sent again).
        var receivedResponse: Bool { responded.load(ordering: .acquiring) }

        init(url: URL, receiver: any TransportExchangeReceiver) {
            self.url = url
            self.receiver = receiver
        }

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            responded.store(true, ordering: .releasing)
            let response = TransportResponse(url: url, statusCode: Int(head.status.code),
                                             httpVersion: "HTTP/\(head.version.major).\(head.version.minor)",
                                             headerFields: head.headers.map { ($0.name, $0.value) })
            let decided = task.eventLoop.makePromise(of: Void.self)
            receiver.didReceiveResponse(response) { proceed in
                if proceed { decided.succeed(()) } else { decided.fail(Stopped()) }
            }
            return decided.futureResult
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            let proceed = buffer.withUnsafeReadableBytes { receiver.didReceiveData($0) }
            return proceed ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(Stopped())
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {}
    }
}
