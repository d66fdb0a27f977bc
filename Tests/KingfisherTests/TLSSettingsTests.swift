// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import NIOSSL
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The TLS settings of ``AsyncHTTPClientTransport/Configuration`` against servers with
/// certificates made for each test: a private CA, client certificates, pins, and the words for
/// refused certificates.
@Suite(.timeLimit(.minutes(10))) struct TLSSettingsTests {
    /// A downloader on a transport with `configuration` (never the environment's proxy).
    func downloader(_ configuration: AsyncHTTPClientTransport.Configuration = .init()) throws -> ImageDownloader {
        var configuration = configuration
        if configuration.proxy == .environment { configuration.proxy = .none }
        let downloader = ImageDownloader(name: "tls", transport: try AsyncHTTPClientTransport(configuration: configuration))
        // Which error arrives says whether it came before the idle timeout.
        downloader.downloadTimeout = 60
        return downloader
    }

    /// What a download from a ``TLSFront`` did.
    struct Outcome {
        /// The transport error, `nil` when the image loaded.
        var error: URLError?
        var message: String
        var port: Int
        /// Requests the server behind the front received.
        var requests: Int
    }

    /// Downloads an image from a ``TLSFront`` showing `certificate` (and requiring a client
    /// certificate `clientCA` signed), with a transport configured as `configuration` says.
    func download(
        _ certificates: TestCertificates, showing certificate: String, key: String, clientCA: String? = nil,
        _ configuration: AsyncHTTPClientTransport.Configuration = .init(),
        trustedHosts: Set<String> = []
    ) async throws -> Outcome {
        let downloader = try downloader(configuration)
        downloader.trustedHosts = trustedHosts
        return try await withTLSFront(certificate: certificate, key: key, clientCA: clientCA) { front, server in
            let failure = await kingfisherError { _ = try await downloader.downloadImage(with: front.url("/image/photo.png")) }
            var error: URLError?
            if let failure {
                guard case .responseError(reason: .URLSessionError(let underlying as URLError)) = failure else {
                    Issue.record("not a transport error: \(failure)")
                    return Outcome(error: nil, message: "\(failure)", port: front.port, requests: server.requests("/image/photo.png"))
                }
                error = underlying
            }
            return Outcome(
                error: error, message: error.map(TransportErrorText.describe) ?? "", port: front.port,
                requests: server.requests("/image/photo.png"))
        }
    }

    /// Expects the image to have loaded with one request.
    func expectLoaded(_ outcome: Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.error == nil && outcome.requests == 1, "\(outcome.message)", sourceLocation: sourceLocation)
    }

    /// Expects the handshake to have failed with `code` for `reason`, before any request.
    func expectRefused(
        _ outcome: Outcome, _ code: URLError.Code, _ reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(outcome.error?.code == code, "\(String(describing: outcome.error))", sourceLocation: sourceLocation)
        #expect(
            outcome.message.hasSuffix("the TLS handshake with 127.0.0.1:\(outcome.port) failed: \(reason)"), "\(outcome.message)",
            sourceLocation: sourceLocation)
        #expect(outcome.requests == 0, "no request over a refused connection", sourceLocation: sourceLocation)
    }

    // MARK: A private CA

    @Test func aPrivateCAsCertificateIsRefusedNamingTheIssuer() async throws {
        try await withTestCertificates { c in
            let outcome = try await download(c, showing: c.serverCertificate, key: c.serverKey)
            expectRefused(
                outcome, .serverCertificateHasUnknownRoot,
                "its certificate is not trusted: its issuer 'Kingfisher Test CA' is not a trusted authority")
        }
    }

    @Test func aPrivateCAsCertificateIsAcceptedWithTheCAFile() async throws {
        try await withTestCertificates { c in
            expectLoaded(
                try await download(
                    c, showing: c.serverCertificate, key: c.serverKey,
                    .init(additionalCertificateAuthoritiesFile: c.caCertificate)))
        }
    }

    @Test func anExpiredCertificateSaysWhenItExpired() async throws {
        try await withTestCertificates { c in
            // The CA is trusted: the date is all that is wrong.
            let outcome = try await download(
                c, showing: c.expiredCertificate, key: c.serverKey,
                .init(additionalCertificateAuthoritiesFile: c.caCertificate))
            expectRefused(outcome, .serverCertificateHasBadDate, "its certificate expired on 2020-01-01")
        }
    }

    @Test func aSelfSignedCertificateIsNamedSo() async throws {
        try await withTestCertificates { c in
            let outcome = try await download(c, showing: c.selfSignedCertificate, key: c.selfSignedKey)
            expectRefused(outcome, .serverCertificateUntrusted, "its certificate is not trusted: it is self-signed")
        }
    }

    @Test func aCertificateForAnotherHostIsRefusedNamingTheHost() async throws {
        try await withTestCertificates { c in
            // Signed by the trusted CA, but for a client, not for 127.0.0.1.
            let outcome = try await download(
                c, showing: c.clientCertificate, key: c.clientKey,
                .init(additionalCertificateAuthoritiesFile: c.caCertificate))
            expectRefused(outcome, .serverCertificateUntrusted, "its certificate is not for 127.0.0.1")
        }
    }

    // MARK: Client certificates

    @Test func aServerRequiringAClientCertificateRefusesWithoutOne() async throws {
        try await withTestCertificates { c in
            let outcome = try await download(
                c, showing: c.serverCertificate, key: c.serverKey, clientCA: c.caCertificate,
                .init(additionalCertificateAuthoritiesFile: c.caCertificate))
            expectRefused(outcome, .secureConnectionFailed, "the server requires a client certificate")
        }
    }

    @Test func aServerRequiringAClientCertificateAcceptsOne() async throws {
        try await withTestCertificates { c in
            let client = AsyncHTTPClientTransport.ClientCertificate(certificateChainFile: c.clientCertificate, privateKeyFile: c.clientKey)
            expectLoaded(
                try await download(
                    c, showing: c.serverCertificate, key: c.serverKey, clientCA: c.caCertificate,
                    .init(additionalCertificateAuthoritiesFile: c.caCertificate, clientCertificate: client)))
        }
    }

    // MARK: Pins

    @Test func theRightPinAcceptsASelfSignedCertificate() async throws {
        try await withTestCertificates { c in
            let pin = try await c.pin(of: c.selfSignedCertificate)
            expectLoaded(
                try await download(
                    c, showing: c.selfSignedCertificate, key: c.selfSignedKey,
                    .init(pinnedPublicKeys: ["127.0.0.1": [pin]])))
        }
    }

    @Test func aWrongPinRefusesSayingSo() async throws {
        try await withTestCertificates { c in
            let presented = try await c.pin(of: c.selfSignedCertificate)
            let other = try await c.pin(of: c.serverCertificate)
            let outcome = try await download(
                c, showing: c.selfSignedCertificate, key: c.selfSignedKey,
                .init(pinnedPublicKeys: ["127.0.0.1": [other]]))
            expectRefused(outcome, .serverCertificateUntrusted, "its public key \(presented) matches no pin for 127.0.0.1")
            // Pins take precedence over the downloader's trusted hosts.
            let trusted = try await download(
                c, showing: c.selfSignedCertificate, key: c.selfSignedKey,
                .init(pinnedPublicKeys: ["127.0.0.1": [other]]), trustedHosts: ["127.0.0.1"])
            expectRefused(trusted, .serverCertificateUntrusted, "its public key \(presented) matches no pin for 127.0.0.1")
        }
    }

    @Test func aPinRefusesACertificateATrustedCAIssuedForAnotherKey() async throws {
        try await withTestCertificates { c in
            let presented = try await c.pin(of: c.serverCertificate)
            let elsewhere = try await c.pin(of: c.selfSignedCertificate)
            let outcome = try await download(
                c, showing: c.serverCertificate, key: c.serverKey,
                .init(
                    additionalCertificateAuthoritiesFile: c.caCertificate,
                    pinnedPublicKeys: ["127.0.0.1": [elsewhere]]))
            expectRefused(outcome, .serverCertificateUntrusted, "its public key \(presented) matches no pin for 127.0.0.1")
        }
    }

    /// The test server offers HTTP/2, whose connections AsyncHTTPClient sets up on another path.
    @Test func pinsHoldOverHTTP2() async throws {
        try await withTestHTTPServer(tls: true) { server in
            let pin = try await TestCertificates.pin(ofServerOnPort: server.port)
            let pinned = try downloader(.init(pinnedPublicKeys: ["127.0.0.1": [pin]]))
            _ = try await pinned.downloadImage(with: server.url("/image/photo.png"))
            #expect(server.httpVersion("/image/photo.png") == 2)
            let other = Data(repeating: 1, count: 32).base64EncodedString()
            let refusing = try downloader(.init(pinnedPublicKeys: ["127.0.0.1": [other]]))
            let refused = await kingfisherError { _ = try await refusing.downloadImage(with: server.url("/image/photo.png")) }
            #expect(
                refused?.localizedDescription.contains("its public key \(pin) matches no pin for 127.0.0.1") == true,
                "\(String(describing: refused))")
            #expect(server.requests("/image/photo.png") == 1)
        }
    }

    @Test func aPinnedKeyMustStillComeWithTheHostsName() async throws {
        try await withTestCertificates { c in
            // The client certificate names no host: its key is pinned, but it is not for 127.0.0.1.
            let pin = try await c.pin(of: c.clientCertificate)
            let outcome = try await download(
                c, showing: c.clientCertificate, key: c.clientKey, .init(pinnedPublicKeys: ["127.0.0.1": [pin]]))
            expectRefused(outcome, .serverCertificateUntrusted, "its certificate is not for 127.0.0.1")
        }
    }

    // MARK: Settings that cannot be used

    func configurationError(_ configuration: AsyncHTTPClientTransport.Configuration) -> String? {
        do {
            _ = try AsyncHTTPClientTransport(configuration: configuration)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func unusableFilesAreNamedWithWhatIsWrong() async throws {
        try await withTestCertificates { certificates in
            let missing = certificates.path("missing.pem")
            #expect(configurationError(.init(additionalCertificateAuthoritiesFile: missing)) == "the CA file \(missing) does not exist")
            #expect(
                configurationError(.init(additionalCertificateAuthoritiesFile: certificates.serverKey))
                    == "the CA file \(certificates.serverKey) holds no PEM certificate")
            let notAKey = AsyncHTTPClientTransport.ClientCertificate(
                certificateChainFile: certificates.clientCertificate,
                privateKeyFile: certificates.caCertificate)
            #expect(
                configurationError(.init(clientCertificate: notAKey))
                    == "the private key file \(certificates.caCertificate) holds no unencrypted PEM private key")
            let mismatched = AsyncHTTPClientTransport.ClientCertificate(
                certificateChainFile: certificates.clientCertificate,
                privateKeyFile: certificates.serverKey)
            #expect(
                configurationError(.init(clientCertificate: mismatched))
                    == "the private key in \(certificates.serverKey) does not belong to the certificate in \(certificates.clientCertificate)"
            )
            // A file holding both the certificate and its key serves as both.
            let both = certificates.path("client-and-key.pem")
            var combined = try Data(contentsOf: URL(fileURLWithPath: certificates.clientCertificate))
            combined.append(try Data(contentsOf: URL(fileURLWithPath: certificates.clientKey)))
            try combined.write(to: URL(fileURLWithPath: both))
            #expect(configurationError(.init(clientCertificate: .init(certificateChainFile: both))) == nil)
        }
    }

    @Test func aPinMustBeASHA256Digest() {
        #expect(
            configurationError(.init(pinnedPublicKeys: ["example.com": ["sha256//abc"]]))
                == "the pin 'sha256//abc' for example.com is not sha256//BASE64 of a 32-byte SHA-256 digest")
        let digest = Data(repeating: 7, count: 32).base64EncodedString()
        #expect(configurationError(.init(pinnedPublicKeys: ["example.com": [digest, "sha256//" + digest]])) == nil)
    }

    /// The transport's own digest agrees with openssl's (the pins users copy from curl's docs).
    @Test func theKeyDigestIsTheHPKPPin() async throws {
        try await withTestCertificates { certificates in
            let certificate = try NIOSSLCertificate.fromPEMFile(certificates.selfSignedCertificate)[0]
            let expected = try await certificates.pin(of: certificates.selfSignedCertificate)
            #expect(try "sha256//" + PinnedKeyCheck.publicKeyDigest(of: certificate) == expected)
        }
    }
}
