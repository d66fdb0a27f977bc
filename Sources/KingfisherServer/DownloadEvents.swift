import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Kingfisher

/// Counts the service's source downloads as the downloader reports them.
final class DownloadEvents: ImageDownloaderDelegate {
    private let metrics: ServiceMetrics

    init(metrics: ServiceMetrics) {
        self.metrics = metrics
    }

    func imageDownloader(_ downloader: ImageDownloader, didFinishDownloadingImageForURL url: URL,
                         with response: URLResponse?, error: (any Error)?) {
        metrics.recordFetch(failed: error != nil)
    }
}
