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
        limitReached(
            .dataLengthExceedsMaximum, url: url, limit: limit,
            "the response is larger than the limit of \(limit) bytes (\(received) bytes)",
            extra: [ImageDownloader.receivedByteCountUserInfoKey: received])
    }

    /// More redirects than ``ImageDownloader/redirectLimit`` (a loop ends here too): URLSession's
    /// `.httpTooManyRedirects`.
    static func tooManyRedirects(url: URL, limit: Int) -> KingfisherError {
        limitReached(.httpTooManyRedirects, url: url, limit: limit, "more than \(limit) redirects (or a loop)")
    }

    private static func limitReached(
        _ code: URLError.Code, url: URL, limit: Int, _ text: String,
        extra: [String: any Sendable] = [:]
    ) -> KingfisherError {
        let userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: text, NSURLErrorFailingURLErrorKey: url,
            ImageDownloader.limitUserInfoKey: limit,
        ].merging(extra) { first, _ in first }
        return .responseError(reason: .URLSessionError(error: URLError(code, userInfo: userInfo)))
    }

    /// Whether this is one of the downloader's limits (``responseTooLarge(url:limit:received:)``,
    /// ``tooManyRedirects(url:limit:)``), which the same request would reach again.
    var isDownloadLimit: Bool {
        guard case .responseError(reason: .URLSessionError(let error as URLError)) = self else { return false }
        return error.userInfo[ImageDownloader.limitUserInfoKey] != nil
    }
}
