// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// The `HTTPClient`s of an ``AsyncHTTPClientTransport``, one per proxy and kind of certificate
/// check, and one for plain http requests a proxy forwards, each made on first use:
/// AsyncHTTPClient sets its proxy and its certificate checks per client, not per request. A
/// transport uses a handful at most (proxies times checks).
final class TransportClients: Sendable {
    /// How a client checks servers' certificates.
    enum Check: Hashable, Sendable {
        /// The chain against the trusted roots, then the host name: the default.
        case verified
        /// Nothing: for the downloader's trusted hosts.
        case anyCertificate
        /// The pins of `host` (``PinnedKeyCheck``) instead of the chain.
        case pinned(host: String)
        /// Nothing, but every connection fails as soon as it is made, handing over the server's
        /// certificate (``CertificateProbe``); no request is ever sent.
        case probe
    }

    private struct Key: Hashable {
        var proxy: ProxyServer?
        var check: Check
        /// Requests are sent to the proxy they name as their origin, their targets in absolute
        /// form (``AbsoluteFormTarget``).
        var forwardedByProxy = false
    }

    private let clients = Locked<[Key: HTTPClient]>([:])
    private let tls: TLSSettings
    private let connectionsPerHost: Int
    private let retriesFailedConnections: Bool

    init(tls: TLSSettings, connectionsPerHost: Int, retriesFailedConnections: Bool = true) {
        self.tls = tls
        self.connectionsPerHost = connectionsPerHost
        self.retriesFailedConnections = retriesFailedConnections
    }

    /// The client for requests through `proxy` (`nil`: directly) checking certificates as `check` says.
    func client(proxy: ProxyServer?, check: Check) -> HTTPClient {
        client(for: Key(proxy: proxy, check: check))
    }

    /// The client for plain http requests sent to a forward proxy: their URL names the proxy,
    /// their `Host` field the origin, and they leave in absolute form.
    func forwardingClient() -> HTTPClient {
        client(for: Key(proxy: nil, check: .verified, forwardedByProxy: true))
    }

    private func client(for key: Key) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[key] { return client }
            let made = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration(for: key))
            clients[key] = made
            return made
        }
    }

    /// Shuts every client down (without waiting).
    func shutdown() {
        let all = clients.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        for client in all { client.shutdown { _ in } }
    }

    private func configuration(for key: Key) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls.clientConfiguration(verifyingChain: key.check == .verified),
            redirectConfiguration: .disallow)
        configuration.proxy = key.proxy?.asyncHTTPClientProxy
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerHost)
        configuration.connectionPool.retryConnectionEstablishment = retriesFailedConnections
        // AsyncHTTPClient retries a failing connection until this timeout, then reports the
        // last connection error (refused, TLS): 3 s keeps that error ahead of the downloader's
        // idle timeout (15 s by default).
        configuration.timeout = .init(connect: .seconds(3))
        configuration.httpVersion = .automatic
        configuration.decompression = .disabled
        // AsyncHTTPClient calls these once a connection is up (TLS included) and before it
        // carries any request, and fails the connection when the returned future fails.
        let afterHandshake: (@Sendable (any Channel) -> EventLoopFuture<Void>)?
        switch key.check {
        case .verified, .anyCertificate:
            afterHandshake = nil
        case .pinned(let host):
            let check = PinnedKeyCheck(host: host, pins: tls.pins(for: host) ?? [])
            afterHandshake = { channel in check.verify(channel) }
        case .probe:
            afterHandshake = CertificateProbe.capture
            // One handshake is all a probe needs; retrying would only repeat the capture.
            configuration.connectionPool.retryConnectionEstablishment = false
        }
        configuration.http1_1ConnectionDebugInitializer = afterHandshake
        configuration.http2ConnectionDebugInitializer = afterHandshake
        if key.forwardedByProxy {
            // Plain http: never HTTP/2, and every connection rewrites its requests' targets.
            configuration.httpVersion = .http1Only
            configuration.http1_1ConnectionDebugInitializer = AbsoluteFormTarget.install(on:)
        }
        return configuration
    }
}
