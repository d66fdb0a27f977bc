// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ImageDownloader {
    /// The key, in the `userInfo` of the `URLError` a download fails with when it reaches one of
    /// the downloader's limits, of that limit (an `Int`: bytes, or redirects).
    public static let limitUserInfoKey = "KingfisherLimit"
    /// The key, in the `userInfo` of a `.dataLengthExceedsMaximum` `URLError`, of the bytes
    /// received or announced by `Content-Length` when the download stopped (an `Int64`).
    public static let receivedByteCountUserInfoKey = "KingfisherReceivedByteCount"
}

extension KingfisherError {
    /// A body (or its announced length) over ``ImageDownloader/maxResponseDataSize``: URLSession's
    /// `.dataLengthExceedsMaximum`, which Kingfisher reports the same way.
    static func responseTooLarge(url: URL, limit: Int, received: Int64) -> KingfisherError {
        .responseError(
            reason: .URLSessionError(error: DownloadFailure(.responseTooLarge(limit: limit, received: received), url: url).urlError))
    }

    /// More redirects than ``ImageDownloader/redirectLimit`` (a loop ends here too): URLSession's
    /// `.httpTooManyRedirects`.
    static func tooManyRedirects(url: URL, limit: Int) -> KingfisherError {
        .responseError(reason: .URLSessionError(error: DownloadFailure(.tooManyRedirects(limit: limit), url: url).urlError))
    }

    /// A redirect an ``ImageDownloadRedirectPolicy`` refused: URLSession's
    /// `.redirectToNonExistentLocation`, with the policy's reason.
    static func redirectRefused(url: URL, target: URL, because why: String) -> KingfisherError {
        .responseError(reason: .URLSessionError(error: DownloadFailure(.redirectRefused(target: target, because: why), url: url).urlError))
    }

    /// Whether this is one of the downloader's limits (``responseTooLarge(url:limit:received:)``,
    /// ``tooManyRedirects(url:limit:)``) or a policy's refusal, which the same request would
    /// reach again.
    var isDownloadLimit: Bool {
        switch downloadFailure?.reason {
        case .responseTooLarge?, .tooManyRedirects?, .redirectRefused?: return true
        default: return false
        }
    }
}
