// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

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
/// Certificates are verified against the system's roots (and any
/// ``Configuration/additionalCertificateAuthoritiesFile``), except for pinned hosts, whose
/// certificates must carry a pinned key instead, and for requests the downloader marks as going
/// to a trusted host, which accept any certificate. Requests go through the proxy the
/// ``Configuration/proxy`` setting names, by default the environment's.
public final class AsyncHTTPClientTransport: ImageDownloaderTransport {
    /// The transport every ``ImageDownloader`` uses unless given another: the default
    /// ``Configuration`` (up to 8 connections per host, the environment's proxy, the system's
    /// roots). A proxy variable that does not parse fails each request it applies to.
    public static let shared = AsyncHTTPClientTransport()

    private let clients: TransportClients
    private let proxies: ProxyRoutes
    private let tls: TLSSettings
    /// Whether plain http through a proxy is tunnelled rather than sent in absolute form.
    private let tunnelsPlainHTTP: Bool

    /// Creates a transport with its own connection pools, the environment's proxy and the
    /// system's roots.
    ///
    /// - Parameter maxConnectionsPerHost: HTTP/1.1 connections kept per host (HTTP/2
    ///   multiplexes on one). Default 8.
    public init(maxConnectionsPerHost: Int = 8) {
        tls = .system
        tunnelsPlainHTTP = false
        proxies = ProxyRoutes(.environment, environment: ProcessInfo.processInfo.environment)
        clients = TransportClients(tls: tls, connectionsPerHost: maxConnectionsPerHost)
    }

    /// Creates a transport with its own connection pools and `configuration`'s settings, reading
    /// its files now.
    ///
    /// - Throws: ``ConfigurationError`` naming the file or setting that cannot be used: a
    ///   missing or unreadable file, one without a PEM certificate or key, a key that does not
    ///   belong to its certificate, a pin that is no SHA-256 digest, a proxy URL (also one from
    ///   the environment) that does not parse.
    public convenience init(configuration: Configuration) throws(ConfigurationError) {
        try self.init(configuration: configuration, environment: ProcessInfo.processInfo.environment)
    }

    /// `environment` stands for the process environment (for tests).
    init(configuration: Configuration, environment: [String: String]) throws(ConfigurationError) {
        tls = try TLSSettings(configuration)
        proxies = ProxyRoutes(configuration.proxy, environment: environment)
        try proxies.validate()
        tunnelsPlainHTTP = configuration.tunnelsPlainHTTP
        clients = TransportClients(
            tls: tls, connectionsPerHost: configuration.maxConnectionsPerHost,
            retriesFailedConnections: configuration.retriesFailedConnections)
    }

    deinit {
        clients.shutdown()
    }

    /// Which client a request uses: its proxy and how its server's certificate is checked.
    private struct Route: Sendable {
        var proxy: ProxyServer?
        var check: TransportClients.Check
        /// A plain http request through `proxy`: sent to it in absolute form, not tunnelled.
        var forwarded: Bool { proxy != nil && isPlainHTTP }
        var isPlainHTTP = false
    }

    private func route(for url: URL, acceptingUntrustedCertificates: Bool) throws -> Route {
        let proxy: ProxyServer?
        do {
            proxy = try proxies.proxy(for: url)
        } catch {
            throw DownloadFailure(.unusableProxySetting("\(error)"), url: url).urlError
        }
        if url.scheme?.lowercased() == "https", let host = url.host, tls.pins(for: host) != nil {
            return Route(proxy: proxy, check: .pinned(host: host.lowercased()))
        }
        if url.scheme?.lowercased() == "http", !tunnelsPlainHTTP {
            return Route(proxy: proxy, check: .verified, isPlainHTTP: true)
        }
        return Route(proxy: proxy, check: acceptingUntrustedCertificates ? .anyCertificate : .verified)
    }

    public func startExchange(
        _ request: URLRequest, acceptingUntrustedCertificates: Bool,
        receiver: any TransportExchangeReceiver
    ) -> any TransportExchange {
        let outgoing: HTTPClient.Request
        let route: Route
        let url: URL
        do {
            guard let requested = request.url else { throw URLError(.badURL) }
            url = requested
            var headers = HTTPHeaders()
            for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
            route = try self.route(for: url, acceptingUntrustedCertificates: acceptingUntrustedCertificates)
            var target = url
            if route.forwarded, let proxy = route.proxy {
                target = try Self.forwardedTarget(url, through: proxy, headers: &headers)
            }
            outgoing = try HTTPClient.Request(
                url: target, method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
                headers: headers, body: request.httpBody.map { .bytes($0) })
        } catch {
            receiver.didComplete(with: error)
            return Exchange()
        }
        let exchange = Exchange()
        send(
            outgoing, url: url, route: route, exchange: exchange, receiver: receiver,
            retries: outgoing.method == .GET || outgoing.method == .HEAD ? 1 : 0)
        return exchange
    }

    /// The URL to send a plain http request for `url` to so that `proxy` forwards it: the
    /// proxy's, with `url`'s path and query; `headers` gain the origin's `Host` and the proxy's
    /// credentials. ``AbsoluteFormTarget`` puts the origin back into the request line.
    private static func forwardedTarget(_ url: URL, through proxy: ProxyServer, headers: inout HTTPHeaders) throws -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.percentEncodedHost
        else { throw URLError(.badURL, userInfo: [NSURLErrorFailingURLErrorKey: url]) }
        let authority = components.port.map { "\(host):\($0)" } ?? host
        headers.replaceOrAdd(name: "Host", value: authority)
        if let user = proxy.user {
            headers.replaceOrAdd(
                name: "Proxy-Authorization",
                value: HTTPClient.Authorization.basic(username: user, password: proxy.password ?? "").headerValue)
        }
        components.host = proxy.host
        components.port = proxy.port
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        guard let target = components.url else { throw URLError(.badURL, userInfo: [NSURLErrorFailingURLErrorKey: url]) }
        return target
    }

    /// Sends `outgoing`; when it fails before any response because its connection closed (a
    /// pooled connection the server closed at any moment, or right after a response it got
    /// wrong), sends it again up to `retries` times, as browsers do for idempotent requests. A
    /// server that closes every connection unanswered therefore sees each request twice.
    private func send(
        _ outgoing: HTTPClient.Request, url: URL, route: Route, exchange: Exchange,
        receiver: any TransportExchangeReceiver, retries: Int
    ) {
        let forwarder = ResponseForwarder(url: url, receiver: receiver, answeredByProxy: route.forwarded)
        let client = route.forwarded ? clients.forwardingClient() : clients.client(proxy: route.proxy, check: route.check)
        let task = client.execute(request: outgoing, delegate: forwarder)
        exchange.run(task)
        task.futureResult.whenComplete { result in
            // A body that arrived before the receiver decided on the head is handed over first.
            forwarder.finish(result) { result in
                switch result {
                case .success:
                    receiver.didComplete(with: nil)
                case .failure(let error):
                    if retries > 0, !forwarder.receivedResponse, !exchange.isCancelled, Self.isClosedConnection(error) {
                        self.send(outgoing, url: url, route: route, exchange: exchange, receiver: receiver, retries: retries - 1)
                    } else if route.check == .verified, TransportErrorText.isRefusedChain(error), !exchange.isCancelled {
                        let probe = self.clients.client(proxy: route.proxy, check: .probe)
                        CertificateProbe.diagnose(url, with: probe) { problem in
                            receiver.didComplete(
                                with: TransportErrorText.urlError(
                                    for: error, url: url, proxy: route.proxy,
                                    certificateProblem: problem))
                        }
                    } else {
                        receiver.didComplete(with: TransportErrorText.urlError(for: error, url: url, proxy: route.proxy))
                    }
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
}
