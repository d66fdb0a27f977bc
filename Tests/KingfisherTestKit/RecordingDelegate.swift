// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records delegate calls; steers with the given switches.
package final class RecordingDelegate: ImageDownloaderDelegate {
    package let calls = Locked<[String]>([])
    package let dropData: Bool
    package let cancelResponse: Bool
    package let accept404: Bool
    package init(dropData: Bool = false, cancelResponse: Bool = false, accept404: Bool = false) {
        self.dropData = dropData
        self.cancelResponse = cancelResponse
        self.accept404 = accept404
    }
    package func imageDownloader(_ downloader: ImageDownloader, willDownloadImageForURL url: URL, with request: URLRequest?) {
        calls.withLock { $0.append("will") }
    }
    package func imageDownloader(
        _ downloader: ImageDownloader, didFinishDownloadingImageForURL url: URL, with response: URLResponse?, error: (any Error)?
    ) {
        calls.withLock { $0.append(error == nil ? "finish" : "finish-error") }
    }
    package func imageDownloader(_ downloader: ImageDownloader, didDownload data: Data, for url: URL) -> Data? {
        calls.withLock { $0.append("data") }
        return dropData ? nil : data
    }
    package func imageDownloader(
        _ downloader: ImageDownloader, didDownload image: KFCrossPlatformImage, for url: URL, with response: URLResponse?
    ) {
        calls.withLock { $0.append("image") }
    }
    package func isValidStatusCode(_ code: Int, for downloader: ImageDownloader) -> Bool {
        accept404 ? code == 404 || (200..<400).contains(code) : (200..<400).contains(code)
    }
    package func imageDownloader(_ downloader: ImageDownloader, didReceive response: URLResponse) async -> ResponseDisposition {
        cancelResponse ? .cancel : .allow
    }
}
