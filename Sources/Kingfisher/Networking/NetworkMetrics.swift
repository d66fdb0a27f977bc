import Foundation

/// Timing and size of one download, as Kingfisher's `NetworkMetrics`.
public struct NetworkMetrics: Sendable {
    /// From sending the first request to the last body byte, in seconds.
    public let totalRequestDuration: TimeInterval
    /// From sending the first request to the first response head, in seconds.
    public let timeToFirstByte: TimeInterval
    /// Body bytes received.
    public let responseBodyBytesReceived: Int64
    /// The final response's status code.
    public let httpStatusCode: Int
    /// How many redirects were followed.
    public let redirectCount: Int

    /// Kingfisher's spelling of ``totalRequestDuration``.
    public var retrieveImageDuration: TimeInterval { totalRequestDuration }

    /// Bytes per second over the whole request; 0 when it took no measurable time.
    public var downloadSpeed: Double {
        totalRequestDuration > 0 ? Double(responseBodyBytesReceived) / totalRequestDuration : 0
    }

    /// ``downloadSpeed`` in megabytes (10^6 bytes) per second.
    public var downloadSpeedMBps: Double { downloadSpeed / 1_000_000 }
}

/// What a download produced, as Kingfisher's `ImageLoadingResult`.
public struct ImageLoadingResult: Sendable {
    /// The image, processed by the caller's processor.
    public let image: KFCrossPlatformImage
    /// The URL it was downloaded from.
    public let url: URL?
    /// The body as received (after the delegate's data hook).
    public let originalData: Data
    /// How the download went.
    public let metrics: NetworkMetrics?

    /// Creates a result, as the downloader does (and a test or a custom loader may).
    ///
    /// - Parameters:
    ///   - url: Default `nil`.
    ///   - metrics: Default `nil`.
    public init(image: KFCrossPlatformImage, url: URL? = nil, originalData: Data, metrics: NetworkMetrics? = nil) {
        self.image = image
        self.url = url
        self.originalData = originalData
        self.metrics = metrics
    }
}

/// Progress of a download: bytes received and the total expected (-1 when unknown).
public typealias DownloadProgressBlock = @Sendable (_ receivedSize: Int64, _ totalSize: Int64) -> Void
