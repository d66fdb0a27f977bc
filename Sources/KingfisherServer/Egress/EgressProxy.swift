// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import NIOCore
import NIOPosix

/// The service's only way out: a `CONNECT` proxy on loopback, in process, that the downloader
/// sends every source fetch and redirect hop through. It resolves the host itself, checks the
/// addresses against the source policy, and connects to the very address it checked, so a name
/// whose answer changes between the check and the connection (DNS rebinding) cannot reach a
/// private network. TLS runs end to end inside the tunnel: certificates are checked for the
/// host, as without the proxy.
///
/// It answers only to the service: each start picks random credentials, which the downloader's
/// transport sends and a request without them is refused.
final class EgressProxy: Sendable {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    /// `user:password`, random per start.
    let credentials: String
    private let channel: any Channel
    private let refusals: Refusals

    /// Why tunnels were refused, by `host:port`, for the service to say why a fetch failed.
    final class Refusals: Sendable {
        /// A refusal: `403` for an address the policy refuses, `502` for a target that did
        /// not resolve or answer.
        struct Refusal: Sendable {
            var status: Int
            var reason: String
        }
        private let byTarget = Locked<[String: Refusal]>([:])

        func record(_ refusal: Refusal, for target: String) {
            byTarget.withLock { byTarget in
                // Bounded: a flood of refused names costs only forgetting older reasons.
                if byTarget.count >= 1024 { byTarget.removeAll(keepingCapacity: true) }
                byTarget[target] = refusal
            }
        }

        func refusal(for target: String) -> Refusal? {
            byTarget.withLock { $0[target] }
        }
    }

    /// Starts listening on 127.0.0.1 on a free port; `allowsPrivateAddresses` says which
    /// `host`, `port` targets may connect to non-public addresses (a trusted private source's).
    init(allowsPrivateAddresses: @escaping @Sendable (_ host: String, _ port: Int) -> Bool) throws {
        let user = UUID().uuidString
        let password = UUID().uuidString
        let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        let refusals = Refusals()
        credentials = "\(user):\(password)"
        self.refusals = refusals
        let rule = EgressConnectHandler.Rule(authorization: expected, allowsPrivateAddresses: allowsPrivateAddresses, refusals: refusals)
        channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(EgressConnectHandler(rule: rule))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .wait()
        port = channel.localAddress?.port ?? 0
    }

    /// The proxy URL for the downloader's transport, credentials included.
    var url: URL { URL(string: "http://\(credentials)@127.0.0.1:\(port)")! }

    /// Why the tunnel to `url`'s host and port was last refused, if it was.
    func refusal(for url: URL) -> Refusals.Refusal? {
        guard var host = url.host?.lowercased() else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return refusals.refusal(for: "\(host):\(port)")
    }

    /// Stops listening; tunnels open stay until their ends close.
    func shutdown() {
        channel.close(promise: nil)
    }
}
