// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns the transport's errors (NIO's, AsyncHTTPClient's, BoringSSL's) into the `URLError`s
/// URLSession gives for the same failures, so code matching on `URLError.Code` keeps working,
/// each with a one-line description of what happened and to which host.
enum TransportErrorText {
    /// The `URLError` for `error` on a request to `url` sent through `proxy` (`nil`: directly);
    /// errors it does not recognise are returned as they are. `certificateProblem` says why a
    /// refused chain (``isRefusedChain(_:)``) was refused, when known.
    static func urlError(
        for error: any Error, url: URL, proxy: ProxyServer? = nil,
        certificateProblem: CertificateProblem? = nil
    ) -> any Error {
        let host = url.host ?? "?"
        let endpoint = "\(host):\(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))"
        // Connections go to the proxy, which connects to the server itself.
        let peer = proxy.map { "proxy \($0.endpoint)" } ?? endpoint
        func made(_ code: URLError.Code, _ text: String) -> URLError {
            URLError(code, userInfo: [NSLocalizedDescriptionKey: text, NSURLErrorFailingURLErrorKey: url])
        }
        func tls(_ code: URLError.Code, _ reason: String) -> URLError {
            made(code, "the TLS handshake with \(endpoint) failed: \(reason)")
        }
        switch error {
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return made(.cannotConnectToHost, "connection refused by \(peer)")
            case ECONNRESET: return made(.networkConnectionLost, "connection reset by \(peer)")
            case ETIMEDOUT: return made(.timedOut, "connecting to \(peer) timed out")
            case ENETUNREACH, EHOSTUNREACH: return made(.cannotConnectToHost, "\(peer) is unreachable")
            default: return made(.cannotConnectToHost, "connecting to \(peer) failed: \(error)")
            }
        case let error as NIOConnectionError:
            if let last = error.connectionErrors.last?.error { return urlError(for: last, url: url, proxy: proxy) }
            return made(.cannotFindHost, "the DNS lookup of \(error.host) found no address")
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout: return made(.timedOut, "connecting to \(peer) timed out")
            case .remoteConnectionClosed: return made(.networkConnectionLost, "\(endpoint) closed the connection")
            case .invalidProxyResponse: return made(.cannotConnectToHost, "\(peer) refused to open a tunnel to \(endpoint)")
            case .proxyAuthenticationRequired:
                return made(
                    .userAuthenticationRequired,
                    "\(peer) requires authentication (407)\(proxy?.user == nil ? "" : ": it refused the credentials")")
            case .httpProxyHandshakeTimeout: return made(.timedOut, "\(peer) did not open a tunnel to \(endpoint) in time")
            default: return error
            }
        case let error as HTTPParserError:
            if case .invalidEOFState = error {
                return made(.networkConnectionLost, "\(endpoint) closed the connection before the end of the response")
            }
            return made(.badServerResponse, "the response from \(endpoint) is not valid HTTP: \(error.debugDescription)")
        case let error as PinnedKeyCheck.Mismatch:
            return tls(.serverCertificateUntrusted, "its public key sha256//\(error.presented) matches no pin for \(error.host)")
        case let error as PinnedKeyCheck.WrongHost:
            return tls(.serverCertificateUntrusted, "its certificate is not for \(error.host)")
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return tls(.serverCertificateUntrusted, "its certificate is not for \(host)")
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            if let certificateProblem, isRefusedChain(error) { return tls(certificateProblem.code, certificateProblem.reason) }
            return tls(.secureConnectionFailed, tlsReason(error))
        default:
            return error
        }
    }

    /// Whether `error` is BoringSSL refusing the server's certificate chain (for any cause).
    static func isRefusedChain(_ error: any Error) -> Bool {
        (error is NIOSSLError || error is BoringSSLError) && "\(error)".contains("CERTIFICATE_VERIFY_FAILED")
    }

    /// Why a TLS handshake failed, in words where BoringSSL's reason is a known one. BoringSSL
    /// reports a failed chain as one reason for every cause (untrusted issuer, self-signed,
    /// expired), so those are named together when no ``CertificateProblem`` was found.
    private static func tlsReason(_ error: any Error) -> String {
        let text = "\(error)"
        let reasons = [
            "CERTIFICATE_VERIFY_FAILED": "its certificate is not trusted (self-signed, unknown issuer or expired)",
            "WRONG_VERSION_NUMBER": "the server does not speak TLS on this port",
            "TLSV1_ALERT_PROTOCOL_VERSION": "no TLS version in common",
            "SSLV3_ALERT_HANDSHAKE_FAILURE": "the server refused the handshake (no cipher or certificate in common)",
            "CERTIFICATE_REQUIRED": "the server requires a client certificate",
        ]
        if let known = reasons.first(where: { text.contains($0.key) }) { return known.value }
        // Otherwise BoringSSL's own reason code, the part after its library and function names.
        if let range = text.range(of: "OPENSSL_internal:") {
            return String(text[range.upperBound...].prefix { $0 != "]" && $0 != ")" })
        }
        return text
    }

    /// `error` from an exchange that broke after its response head, its description extended
    /// with how much of the body had arrived.
    static func midBody(_ error: any Error, received: Int, expected: Int64) -> any Error {
        guard let urlError = error as? URLError, let text = urlError.userInfo[NSLocalizedDescriptionKey] as? String else {
            return error
        }
        var userInfo = urlError.userInfo
        let of = expected >= 0 ? " of \(expected)" : ""
        userInfo[NSLocalizedDescriptionKey] = "\(text) after \(received)\(of) bytes of the body"
        return URLError(urlError.code, userInfo: userInfo)
    }

    /// A `206` to a resumption whose range does not start where the kept bytes end.
    static func misplacedRange(_ response: TransportResponse, expectedStart: Int) -> URLError {
        let range = response.value(forHTTPHeaderField: "Content-Range") ?? "no Content-Range"
        return URLError(
            .badServerResponse,
            userInfo: [
                NSLocalizedDescriptionKey: "the server resumed the body with '\(range)', not from byte \(expectedStart)",
                NSURLErrorFailingURLErrorKey: response.url,
            ])
    }

    /// The description of a download's underlying error: a `URLError`'s own text and URL when
    /// it has one, otherwise the error as Swift prints it.
    static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError,
            let text = urlError.userInfo[NSLocalizedDescriptionKey] as? String
        else { return "\(error)" }
        let url = (urlError.userInfo[NSURLErrorFailingURLErrorKey] as? URL)?.absoluteString
        return url.map { "\($0): \(text)" } ?? text
    }
}
