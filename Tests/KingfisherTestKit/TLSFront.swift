// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A TLS server on 127.0.0.1 with a random port that relays the decrypted bytes of each
/// connection to a plain ``TestHTTPServer``: so TLS tests choose the certificate (and whether a
/// client certificate is required) and still count requests with the test server's endpoints.
/// HTTP/1.1 only (no ALPN).
package final class TLSFront: Sendable {
    private let channel: any Channel
    package let port: Int

    /// - Parameters:
    ///   - backend: The plain server the bytes go to.
    ///   - certificate: The PEM certificate chain shown to clients; `key` its PEM key.
    ///   - clientCA: With a PEM CA file, a client certificate it signed is required.
    package init(backend: TestHTTPServer, certificate: String, key: String, clientCA: String? = nil) async throws {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        if let clientCA {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(clientCA))
        }
        let context = try NIOSSLContext(configuration: tls)
        let backendPort = backend.port
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { front in
                // The backend connection is made before the front reads anything.
                ClientBootstrap(group: front.eventLoop)
                    .channelInitializer { back in
                        back.eventLoop.makeCompletedFuture { try back.pipeline.syncOperations.addHandler(Relay(peer: front)) }
                    }
                    .connect(host: "127.0.0.1", port: backendPort)
                    .flatMapThrowing { back in
                        try front.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                        try front.pipeline.syncOperations.addHandler(Relay(peer: back))
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress!.port!
    }

    package func url(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(port)\(path)")! }

    package func shutdown() async {
        try? await channel.close()
    }

    /// Writes what one side reads to the other, and closes the other when one side closes.
    private final class Relay: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let peer: any Channel

        init(peer: any Channel) {
            self.peer = peer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            peer.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            peer.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

/// Runs `body` with a ``TestHTTPServer`` behind a ``TLSFront`` showing `certificate`; shuts
/// both down afterwards, also when `body` throws.
package func withTLSFront<T>(
    certificate: String, key: String, clientCA: String? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TLSFront, TestHTTPServer) async throws -> T
) async throws -> T {
    try await withTestHTTPServer { server in
        let front = try await TLSFront(backend: server, certificate: certificate, key: key, clientCA: clientCA)
        return try await run({ try await body(front, server) }, thenCleanUp: { await front.shutdown() })
    }
}
