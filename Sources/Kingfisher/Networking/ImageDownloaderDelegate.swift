// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Whether a download continues after its response arrives: Foundation's
/// `URLSession.ResponseDisposition`, as in Kingfisher. `.allow` reads the body; any other value
/// stops the download, which fails with `cancelledByDelegate`.
public typealias ResponseDisposition = URLSession.ResponseDisposition

/// Observes and steers an ``ImageDownloader``, as Kingfisher's `ImageDownloaderDelegate`. Every
/// method has a default; the downloader holds its delegate weakly.
public protocol ImageDownloaderDelegate: AnyObject, Sendable {
    /// A download of `url` is about to start with `request`.
    func imageDownloader(_ downloader: ImageDownloader, willDownloadImageForURL url: URL, with request: URLRequest?)
    /// A download finished, once per download (shared by coalesced callers).
    func imageDownloader(
        _ downloader: ImageDownloader, didFinishDownloadingImageForURL url: URL,
        with response: URLResponse?, error: (any Error)?)
    /// The body arrived; return the data to decode (default: `data`), or `nil` to fail with
    /// `dataModifyingFailed`.
    func imageDownloader(_ downloader: ImageDownloader, didDownload data: Data, with task: DownloadTask?) -> Data?
    /// The body for `url` arrived; default: `data`. Called by the task form's default.
    func imageDownloader(_ downloader: ImageDownloader, didDownload data: Data, for url: URL) -> Data?
    /// An image was made from the body.
    func imageDownloader(
        _ downloader: ImageDownloader, didDownload image: KFCrossPlatformImage, for url: URL,
        with response: URLResponse?)
    /// Whether `code` is a success. Default: 200..<400.
    func isValidStatusCode(_ code: Int, for downloader: ImageDownloader) -> Bool
    /// The response head arrived: whether to read the body. Kingfisher 8's form; default: asks
    /// the completion-handler form (Kingfisher 7's) and waits for its answer.
    func imageDownloader(_ downloader: ImageDownloader, didReceive response: URLResponse) async -> URLSession.ResponseDisposition
    /// The response head arrived: pass whether to read the body to `completionHandler`, once.
    /// Kingfisher 7's form, called only through the `async` form's default; default `.allow`.
    func imageDownloader(
        _ downloader: ImageDownloader, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void)
}

extension ImageDownloaderDelegate {
    /// Does nothing.
    public func imageDownloader(_ downloader: ImageDownloader, willDownloadImageForURL url: URL, with request: URLRequest?) {}
    /// Does nothing.
    public func imageDownloader(
        _ downloader: ImageDownloader, didFinishDownloadingImageForURL url: URL,
        with response: URLResponse?, error: (any Error)?
    ) {}
    /// Calls `imageDownloader(_:didDownload:for:)` with the task's URL.
    public func imageDownloader(_ downloader: ImageDownloader, didDownload data: Data, with task: DownloadTask?) -> Data? {
        guard let url = task?.url else { return data }
        return imageDownloader(downloader, didDownload: data, for: url)
    }
    /// Returns `data`.
    public func imageDownloader(_ downloader: ImageDownloader, didDownload data: Data, for url: URL) -> Data? { data }
    /// Does nothing.
    public func imageDownloader(
        _ downloader: ImageDownloader, didDownload image: KFCrossPlatformImage, for url: URL,
        with response: URLResponse?
    ) {}
    /// `(200..<400).contains(code)`.
    public func isValidStatusCode(_ code: Int, for downloader: ImageDownloader) -> Bool { (200..<400).contains(code) }
    /// Waits for the completion-handler form's answer (a handler called twice counts once).
    public func imageDownloader(_ downloader: ImageDownloader, didReceive response: URLResponse) async -> URLSession.ResponseDisposition {
        await firstAnswer { imageDownloader(downloader, didReceive: response, completionHandler: $0) }
    }
    /// Calls `completionHandler(.allow)`.
    public func imageDownloader(
        _ downloader: ImageDownloader, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(.allow)
    }
}
