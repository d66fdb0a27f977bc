// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Counts the service's source downloads as the downloader reports them.
final class DownloadEvents: ImageDownloaderDelegate {
    private let metrics: ServiceMetrics

    init(metrics: ServiceMetrics) {
        self.metrics = metrics
    }

    func imageDownloader(
        _ downloader: ImageDownloader, didFinishDownloadingImageForURL url: URL,
        with response: URLResponse?, error: (any Error)?
    ) {
        metrics.recordFetch(failed: error != nil)
    }
}
