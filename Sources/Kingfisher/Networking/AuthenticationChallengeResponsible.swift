// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers authentication challenges for an ``ImageDownloader``, as Kingfisher's
/// `AuthenticationChallengeResponsible`: set it as the downloader's
/// ``ImageDownloader/authenticationChallengeResponder``.
///
/// On Linux the challenge that reaches it is HTTP authentication: a `401 Unauthorized` with
/// `WWW-Authenticate`. Answering `(.useCredential, URLCredential(user:password:persistence:))`
/// sends the request once more with `Authorization: Basic` (only Basic is spoken; put bearer
/// tokens on requests with a request modifier). A second `401`, or any other answer, fails the
/// download with `invalidHTTPStatusCode`. TLS trust is configured on the transport instead
/// (``AsyncHTTPClientTransport``'s certificate authorities and pins, or ``ImageDownloader/trustedHosts``).
public protocol AuthenticationChallengeResponsible: AnyObject, Sendable {
    /// A challenge for the downloader as a whole (Kingfisher's session-level challenge). Not
    /// sent on Linux, kept so that Kingfisher conformances compile. Default:
    /// `(.performDefaultHandling, nil)`.
    func downloader(
        _ downloader: ImageDownloader, didReceive challenge: URLAuthenticationChallenge
    ) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)

    /// A `401` to one download's request; `task` is the first caller's task. Default:
    /// `(.performDefaultHandling, nil)`, which fails the download with the `401`.
    func downloader(
        _ downloader: ImageDownloader, task: DownloadTask?, didReceive challenge: URLAuthenticationChallenge
    ) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
}

extension AuthenticationChallengeResponsible {
    public func downloader(
        _ downloader: ImageDownloader, didReceive challenge: URLAuthenticationChallenge
    ) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        (.performDefaultHandling, nil)
    }

    public func downloader(
        _ downloader: ImageDownloader, task: DownloadTask?, didReceive challenge: URLAuthenticationChallenge
    ) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        (.performDefaultHandling, nil)
    }
}

/// Kingfisher's old spelling.
@available(*, deprecated, renamed: "AuthenticationChallengeResponsible")
public typealias AuthenticationChallengeResponsable = AuthenticationChallengeResponsible

/// The challenge of a `401` response, and the request header its credential becomes.
enum HTTPAuthentication {
    /// The challenge `response` makes: its protection space from the URL and the first
    /// `WWW-Authenticate` field (scheme and realm).
    static func challenge(of response: TransportResponse) -> URLAuthenticationChallenge {
        let field = response.value(forHTTPHeaderField: "WWW-Authenticate") ?? ""
        let scheme = field.prefix { $0 != " " }.lowercased()
        let method =
            scheme == "basic"
            ? NSURLAuthenticationMethodHTTPBasic
            : scheme == "digest" ? NSURLAuthenticationMethodHTTPDigest : NSURLAuthenticationMethodDefault
        let realm = field.range(of: "realm=\"").map { String(field[$0.upperBound...].prefix { $0 != "\"" }) }
        let url = response.url
        let space = URLProtectionSpace(
            host: url.host ?? "", port: url.port ?? (url.scheme == "https" ? 443 : 80),
            protocol: url.scheme, realm: realm, authenticationMethod: method)
        return URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: nil, previousFailureCount: 0,
            failureResponse: response.httpURLResponse, error: nil, sender: IgnoredSender())
    }

    /// The `Authorization` value for a responder's answer; `nil` unless it gave a user and password.
    static func authorization(for answer: (URLSession.AuthChallengeDisposition, URLCredential?)) -> String? {
        guard answer.0 == .useCredential, let credential = answer.1, let user = credential.user else { return nil }
        return "Basic " + Data("\(user):\(credential.password ?? "")".utf8).base64EncodedString()
    }

    /// The challenge's sender: the answer comes back as the responder's return value instead.
    private final class IgnoredSender: NSObject, URLAuthenticationChallengeSender {
        func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
        func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
        func cancel(_ challenge: URLAuthenticationChallenge) {}
        func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
        func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
    }
}
