// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a download's exchange with the network failed, as values: what went wrong, with which
/// host and port, how far the body got, which limit was reached.
///
/// A download fails with `responseError(.URLSessionError(error:))` whose error is the `URLError`
/// URLSession would give (``urlError``: its code, this failure's ``description`` as the
/// localized description, the failing URL), as Kingfisher's do; the failure itself rides along
/// in it, and ``KingfisherError/downloadFailure`` reads it back.
public struct DownloadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The peer (the server, or the proxy) refused the connection.
        case connectionRefused
        /// The peer reset the connection.
        case connectionReset
        /// Connecting took longer than the system or the transport allows.
        case connectTimedOut
        /// No route to the peer.
        case unreachable
        /// Connecting failed another way, said in words.
        case connectFailed(String)
        /// The DNS lookup of the name found no address.
        case hostNotFound(String)
        /// The server closed the connection.
        case closedByServer
        /// The server closed the connection before the end of the response.
        case closedBeforeEndOfResponse
        /// The response is not valid HTTP, with the parser's reason.
        case invalidHTTP(String)
        /// The proxy refused to open a tunnel to the server.
        case proxyRefusedTunnel
        /// The proxy asks for authentication (`407`); `credentialsRefused` when some were sent.
        case proxyAuthenticationRequired(credentialsRefused: Bool)
        /// The proxy did not open the tunnel in time.
        case proxyTunnelTimedOut
        /// The proxy setting cannot be used, with why.
        case unusableProxySetting(String)
        /// The TLS handshake failed.
        case tls(TLSFailure)
        /// A limit on the download's time was reached.
        case timedOut(Timeout)
        /// The body, or its announced length, is over ``ImageDownloader/maxResponseDataSize``.
        case responseTooLarge(limit: Int, received: Int64)
        /// More redirects than ``ImageDownloader/redirectLimit`` (a loop ends here too).
        case tooManyRedirects(limit: Int)
        /// An ``ImageDownloadRedirectPolicy`` refused to follow a redirect to `target`, saying why.
        case redirectRefused(target: URL, because: String)
        /// A resumed body's `206` did not start where the kept bytes end.
        case misplacedRange(contentRange: String?, expectedStart: Int)
    }

    /// Why a TLS handshake failed.
    public enum TLSFailure: Sendable, Equatable {
        /// The certificate's public key matches none of the host's pins.
        case pinMismatch(presented: String)
        /// The certificate is not for the host.
        case wrongHost
        /// The certificate chain is not trusted, for the reason found on its certificate (`nil`
        /// when none showed: untrusted issuer, self-signed or expired).
        case untrusted(CertificateProblem?)
        /// Another reason, in words.
        case handshake(String)
    }

    /// A limit on a download's time, and how far the download had got.
    public struct Timeout: Sendable, Equatable {
        /// Which limit.
        public enum Limit: Sendable, Equatable {
            /// Nothing arrived for `idle` seconds, over the idle timeout of `limit` seconds.
            case idle(limit: TimeInterval, idle: TimeInterval)
            /// The whole download ran past `limit` seconds.
            case duration(limit: TimeInterval)
        }

        /// Which limit was reached.
        public var limit: Limit
        /// Seconds since the download started.
        public var elapsed: TimeInterval
        /// Whether the response head had arrived.
        public var headReceived: Bool
        /// Body bytes received by then.
        public var bodyBytes: Int
    }

    /// What went wrong.
    public let reason: Reason
    /// The URL being downloaded.
    public let url: URL
    /// The proxy the connection went to (`host:port`), when there was one.
    public let proxy: String?
    /// Body bytes received when the exchange broke after its response head (`nil`: before);
    /// with ``expectedBodyBytes``, the announced length (-1 when unknown).
    public private(set) var bodyBytesReceived: Int?
    /// The body's announced length when the exchange broke after its head; -1 when unknown.
    public private(set) var expectedBodyBytes: Int64?

    /// A failure for a request to `url`, its connection through `proxy` (`host:port`) if any.
    public init(_ reason: Reason, url: URL, proxy: String? = nil) {
        self.reason = reason
        self.url = url
        self.proxy = proxy
    }

    /// The server's host.
    public var host: String { url.host ?? "?" }

    /// The server's port (the scheme's default when the URL names none).
    public var port: Int { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }

    /// The same failure, having happened `received` bytes into a body of `expected` (-1:
    /// unknown).
    public func midBody(received: Int, expected: Int64) -> DownloadFailure {
        var failure = self
        failure.bodyBytesReceived = received
        failure.expectedBodyBytes = expected
        return failure
    }

    /// The `URLError` code URLSession gives for the same failure.
    public var code: URLError.Code {
        switch reason {
        case .connectionRefused, .unreachable, .connectFailed, .proxyRefusedTunnel, .unusableProxySetting: .cannotConnectToHost
        case .connectionReset, .closedByServer, .closedBeforeEndOfResponse: .networkConnectionLost
        case .connectTimedOut, .proxyTunnelTimedOut, .timedOut: .timedOut
        case .hostNotFound: .cannotFindHost
        case .invalidHTTP, .misplacedRange: .badServerResponse
        case .proxyAuthenticationRequired: .userAuthenticationRequired
        case .responseTooLarge: .dataLengthExceedsMaximum
        case .tooManyRedirects: .httpTooManyRedirects
        // Not followed, so the redirect leads nowhere this download may go.
        case .redirectRefused: .redirectToNonExistentLocation
        case .tls(.untrusted(let problem?)): problem.code
        case .tls(.pinMismatch), .tls(.wrongHost): .serverCertificateUntrusted
        // A refused chain whose cause was not found: a failed handshake, as URLSession says.
        case .tls(.untrusted(nil)), .tls(.handshake): .secureConnectionFailed
        }
    }

    /// One line saying what happened and to what (the URL aside).
    public var description: String {
        var text = reasonText
        if let received = bodyBytesReceived {
            let of = expectedBodyBytes.map { $0 >= 0 ? " of \($0)" : "" } ?? ""
            text += " after \(received)\(of) bytes of the body"
        }
        return text
    }

    private var endpoint: String { "\(host):\(port)" }
    /// Where the connection went: the proxy, which connects to the server itself, or the server.
    private var peer: String { proxy.map { "proxy \($0)" } ?? endpoint }

    private var reasonText: String {
        switch reason {
        case .connectionRefused: "connection refused by \(peer)"
        case .connectionReset: "connection reset by \(peer)"
        case .connectTimedOut: "connecting to \(peer) timed out"
        case .unreachable: "\(peer) is unreachable"
        case .connectFailed(let why): "connecting to \(peer) failed: \(why)"
        case .hostNotFound(let name): "the DNS lookup of \(name) found no address"
        case .closedByServer: "\(endpoint) closed the connection"
        case .closedBeforeEndOfResponse: "\(endpoint) closed the connection before the end of the response"
        case .invalidHTTP(let why): "the response from \(endpoint) is not valid HTTP: \(why)"
        case .proxyRefusedTunnel: "\(peer) refused to open a tunnel to \(endpoint)"
        case .proxyAuthenticationRequired(let refused):
            "\(peer) requires authentication (407)\(refused ? ": it refused the credentials" : "")"
        case .proxyTunnelTimedOut: "\(peer) did not open a tunnel to \(endpoint) in time"
        case .unusableProxySetting(let why): "the proxy setting cannot be used: \(why)"
        case .tls(let failure): "the TLS handshake with \(endpoint) failed: \(Self.text(of: failure, host: host))"
        case .timedOut(let timeout): Self.text(of: timeout)
        case .responseTooLarge(let limit, let received): "the response is larger than the limit of \(limit) bytes (\(received) bytes)"
        case .tooManyRedirects(let limit): "more than \(limit) redirects (or a loop)"
        case .redirectRefused(let target, let why): "refused to follow a redirect to \(target.absoluteString.prefix(300)): \(why)"
        case .misplacedRange(let range, let start):
            "the server resumed the body with '\(range ?? "no Content-Range")', not from byte \(start)"
        }
    }

    private static func text(of failure: TLSFailure, host: String) -> String {
        switch failure {
        case .pinMismatch(let presented): "its public key sha256//\(presented) matches no pin for \(host)"
        case .wrongHost: "its certificate is not for \(host)"
        case .untrusted(let problem?): problem.reason
        case .untrusted(nil): "its certificate is not trusted (self-signed, unknown issuer or expired)"
        case .handshake(let reason): reason
        }
    }

    private static func text(of timeout: Timeout) -> String {
        let progress = timeout.headReceived ? "\(timeout.bodyBytes) bytes into the body" : "with no response"
        let what =
            switch timeout.limit {
            case .duration(let limit): "ran past the \(seconds(limit)) limit on a download's duration"
            // Before the head the transport hands over nothing, not even a head trickling in
            // byte by byte: only the head's absence is known.
            case .idle(let limit, let idle) where !timeout.headReceived:
                "no complete response head for \(seconds(idle)) (idle timeout \(seconds(limit)))"
            case .idle(let limit, let idle): "received nothing for \(seconds(idle)) (idle timeout \(seconds(limit)))"
            }
        return "timed out after \(seconds(timeout.elapsed)), \(progress): \(what)"
    }

    private static func seconds(_ value: Double) -> String {
        value < 10 ? String(format: "%.1f s", value) : String(format: "%.0f s", value)
    }

    /// The key, in ``urlError``'s `userInfo`, of the failure itself.
    static let userInfoKey = "KingfisherDownloadFailure"

    /// The `URLError` URLSession would give: ``code``, ``description`` as its localized
    /// description, the failing URL; a reached limit also under
    /// ``ImageDownloader/limitUserInfoKey`` (and the bytes received under
    /// ``ImageDownloader/receivedByteCountUserInfoKey``), and this failure under its own key.
    public var urlError: URLError {
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: description, NSURLErrorFailingURLErrorKey: url, Self.userInfoKey: self,
        ]
        switch reason {
        case .responseTooLarge(let limit, let received):
            userInfo[ImageDownloader.limitUserInfoKey] = limit
            userInfo[ImageDownloader.receivedByteCountUserInfoKey] = received
        case .tooManyRedirects(let limit):
            userInfo[ImageDownloader.limitUserInfoKey] = limit
        default:
            break
        }
        return URLError(code, userInfo: userInfo)
    }
}

extension KingfisherError {
    /// The network failure a download ended with, as values; `nil` for other errors (a status
    /// code, a decoding failure) and for transport errors of another kind.
    public var downloadFailure: DownloadFailure? {
        guard case .responseError(reason: .URLSessionError(let error as URLError)) = self else { return nil }
        return error.userInfo[DownloadFailure.userInfoKey] as? DownloadFailure
    }
}
