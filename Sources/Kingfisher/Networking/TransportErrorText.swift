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
    /// The `URLError` for `error` on a request to `url` sent through `proxy` (`nil`: directly),
    /// carrying its ``DownloadFailure``; errors it does not recognise are returned as they are.
    /// `certificateProblem` says why a refused chain (``isRefusedChain(_:)``) was refused, when
    /// known.
    static func urlError(
        for error: any Error, url: URL, proxy: ProxyServer? = nil,
        certificateProblem: CertificateProblem? = nil
    ) -> any Error {
        guard let reason = reason(for: error, proxy: proxy, certificateProblem: certificateProblem) else {
            if let error = error as? NIOConnectionError, let last = error.connectionErrors.last?.error {
                return urlError(for: last, url: url, proxy: proxy)
            }
            return error
        }
        return DownloadFailure(reason, url: url, proxy: proxy?.endpoint).urlError
    }

    /// What `error` means, when it is one the transport knows.
    private static func reason(
        for error: any Error, proxy: ProxyServer?, certificateProblem: CertificateProblem?
    ) -> DownloadFailure.Reason? {
        switch error {
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return .connectionRefused
            case ECONNRESET: return .connectionReset
            case ETIMEDOUT: return .connectTimedOut
            case ENETUNREACH, EHOSTUNREACH: return .unreachable
            default: return .connectFailed("\(error)")
            }
        case let error as NIOConnectionError:
            return error.connectionErrors.isEmpty ? .hostNotFound(error.host) : nil
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout: return .connectTimedOut
            case .remoteConnectionClosed: return .closedByServer
            case .invalidProxyResponse: return .proxyRefusedTunnel
            case .proxyAuthenticationRequired: return .proxyAuthenticationRequired(credentialsRefused: proxy?.user != nil)
            case .httpProxyHandshakeTimeout: return .proxyTunnelTimedOut
            default: return nil
            }
        case let error as HTTPParserError:
            if case .invalidEOFState = error { return .closedBeforeEndOfResponse }
            return .invalidHTTP(error.debugDescription)
        case let error as PinnedKeyCheck.Mismatch:
            return .tls(.pinMismatch(presented: error.presented))
        case is PinnedKeyCheck.WrongHost:
            return .tls(.wrongHost)
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return .tls(.wrongHost)
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            if isRefusedChain(error) { return .tls(.untrusted(certificateProblem)) }
            return .tls(.handshake(tlsReason(error)))
        default:
            return nil
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

    /// `error` from an exchange that broke after its response head, saying how much of the body
    /// had arrived (a failure of the transport's own; any other error as it is).
    static func midBody(_ error: any Error, received: Int, expected: Int64) -> any Error {
        guard let urlError = error as? URLError else { return error }
        if let failure = urlError.userInfo[DownloadFailure.userInfoKey] as? DownloadFailure {
            return failure.midBody(received: received, expected: expected).urlError
        }
        // Another transport's URLError: its own text, extended the same way.
        guard let text = urlError.userInfo[NSLocalizedDescriptionKey] as? String else { return error }
        var userInfo = urlError.userInfo
        userInfo[NSLocalizedDescriptionKey] = "\(text) after \(received)\(expected >= 0 ? " of \(expected)" : "") bytes of the body"
        return URLError(urlError.code, userInfo: userInfo)
    }

    /// The description of a download's underlying error: the failure's own line and its URL
    /// for a ``DownloadFailure``, a `URLError`'s text and URL for one made elsewhere (another
    /// transport), otherwise the error as Swift prints it.
    static func describe(_ error: any Error) -> String {
        if let failure = (error as? URLError)?.userInfo[DownloadFailure.userInfoKey] as? DownloadFailure {
            return "\(failure.url.absoluteString): \(failure.description)"
        }
        guard let urlError = error as? URLError,
            let text = urlError.userInfo[NSLocalizedDescriptionKey] as? String
        else { return "\(error)" }
        let url = (urlError.userInfo[NSURLErrorFailingURLErrorKey] as? URL)?.absoluteString
        return url.map { "\($0): \(text)" } ?? text
    }
}
