// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A redirect handler that says why it refuses a redirect (beyond Kingfisher, whose handler
/// only returns `nil`). A refused redirect fails the download with
/// ``DownloadFailure/Reason/redirectRefused(target:because:)``, which carries the reason to
/// every caller sharing the download; the `3xx` does not become the response.
///
/// ``ImageDownloadRedirectHandler/handleHTTPRedirection(for:response:newRequest:)`` is asked only for redirects
/// the policy allows; by default it follows them as they are.
///
/// A downloader shares one download among the callers asking for the same URL: the redirect
/// handler of the caller that started it decides for every caller that joins it. Give callers
/// with different policies downloaders of their own (as `kf serve` does, with one policy).
public protocol ImageDownloadRedirectPolicy: ImageDownloadRedirectHandler {
    /// Why the redirect from `response` to `target` must not be followed, in a short phrase;
    /// `nil` to allow it.
    func refusal(ofRedirectTo target: URL, from response: HTTPURLResponse) async -> String?
}

extension ImageDownloadRedirectPolicy {
    /// `newRequest`: an allowed redirect is followed as it is.
    public func handleHTTPRedirection(for task: DownloadTask?, response: HTTPURLResponse, newRequest: URLRequest) async -> URLRequest? {
        newRequest
    }
}
