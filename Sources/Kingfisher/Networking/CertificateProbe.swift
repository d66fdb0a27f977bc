// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// Fetches a server's certificate after its chain was refused, to say why
/// (``CertificateProblem``): a second handshake that accepts any chain, on a client whose
/// connections fail right after the handshake (``TransportClients/Check/probe``), so nothing is
/// sent to the untrusted server. Only the error message depends on it, never a decision to trust.
enum CertificateProbe {
    /// The failure a probe connection ends with: the certificate it saw.
    struct Captured: Error {
        var certificate: NIOSSLCertificate?
    }

    /// The after-handshake hook of probe clients.
    @Sendable static func capture(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.nioSSL_peerCertificate().flatMapThrowing { throw Captured(certificate: $0) }
    }

    /// Connects to `url`'s server with `client` (a probe client) and reports the problem of its
    /// certificate, or `nil` when the probe failed otherwise or found nothing wrong.
    static func diagnose(
        _ url: URL, with client: HTTPClient,
        report: @escaping @Sendable (CertificateProblem?) -> Void
    ) {
        guard let request = try? HTTPClient.Request(url: url, method: .HEAD) else { return report(nil) }
        client.execute(request: request).whenComplete { result in
            guard case .failure(let error) = result, let captured = error as? Captured,
                let certificate = captured.certificate
            else { return report(nil) }
            report(CertificateProblem(of: certificate))
        }
    }
}
