// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Timing and size of one download, as Kingfisher's `NetworkMetrics`.
///
/// The HTTP client (AsyncHTTPClient) does not report when a DNS lookup, a TCP connection or a
/// TLS handshake started and ended, so ``domainLookupDuration``, ``connectDuration`` and
/// ``secureConnectionDuration`` are `nil`, as Kingfisher's are for a reused connection; there is
/// no `rawMetrics` (`URLSessionTaskMetrics`).
public struct NetworkMetrics: Sendable {
    /// From sending the request that answered (after any redirects) to its last body byte, in
    /// seconds.
    public let retrieveImageDuration: TimeInterval?
    /// From sending the first request to the last body byte, redirects included, in seconds.
    public let totalRequestDuration: TimeInterval
    /// From sending the first request to the first response head, in seconds (beyond Kingfisher).
    public let timeToFirstByte: TimeInterval
    /// The DNS lookup's duration: `nil`, not measured (see the type).
    public let domainLookupDuration: TimeInterval?
    /// The TCP connection's duration: `nil`, not measured (see the type).
    public let connectDuration: TimeInterval?
    /// The TLS handshake's duration: `nil`, not measured (see the type).
    public let secureConnectionDuration: TimeInterval?
    /// Bytes of request body sent with the request that answered: 0 for a GET.
    public let requestBodyBytesSent: Int64
    /// Body bytes received.
    public let responseBodyBytesReceived: Int64
    /// The status code of the response that answered.
    public let httpStatusCode: Int?
    /// How many redirects were followed.
    public let redirectCount: Int

    init(
        retrieveImageDuration: TimeInterval?, totalRequestDuration: TimeInterval, timeToFirstByte: TimeInterval,
        requestBodyBytesSent: Int64, responseBodyBytesReceived: Int64, httpStatusCode: Int?, redirectCount: Int
    ) {
        self.retrieveImageDuration = retrieveImageDuration
        self.totalRequestDuration = totalRequestDuration
        self.timeToFirstByte = timeToFirstByte
        domainLookupDuration = nil
        connectDuration = nil
        secureConnectionDuration = nil
        self.requestBodyBytesSent = requestBodyBytesSent
        self.responseBodyBytesReceived = responseBodyBytesReceived
        self.httpStatusCode = httpStatusCode
        self.redirectCount = redirectCount
    }

    /// Body bytes per second over ``retrieveImageDuration``; `nil` when nothing was received or
    /// no time was measured, as Kingfisher's.
    public var downloadSpeed: Double? {
        guard responseBodyBytesReceived > 0, let duration = retrieveImageDuration, duration > 0 else { return nil }
        return Double(responseBodyBytesReceived) / duration
    }

    /// ``downloadSpeed`` in megabytes (10^6 bytes) per second.
    public var downloadSpeedMBps: Double? { downloadSpeed.map { $0 / 1_000_000 } }
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
    /// The response it came in, for the manager's HTTP caching; `nil` for a result made by
    /// other code (an ``ImageDownloader`` subclass), which is then cached as if the response
    /// said nothing.
    package let response: TransportResponse?

    /// Creates a result, as the downloader does (and a test or a custom loader may).
    ///
    /// - Parameters:
    ///   - image: The image, processed by the caller's processor.
    ///   - url: Default `nil`.
    ///   - originalData: The body as received.
    ///   - metrics: Default `nil`.
    public init(image: KFCrossPlatformImage, url: URL? = nil, originalData: Data, metrics: NetworkMetrics? = nil) {
        self.init(image: image, url: url, originalData: originalData, metrics: metrics, response: nil)
    }

    init(image: KFCrossPlatformImage, url: URL?, originalData: Data, metrics: NetworkMetrics?, response: TransportResponse?) {
        self.image = image
        self.url = url
        self.originalData = originalData
        self.metrics = metrics
        self.response = response
    }

    /// The same result, carrying the response it came in.
    func carrying(_ response: TransportResponse) -> ImageLoadingResult {
        ImageLoadingResult(image: image, url: url, originalData: originalData, metrics: metrics, response: response)
    }
}

/// Progress of a download: bytes received and the total expected (-1 when unknown).
public typealias DownloadProgressBlock = @Sendable (_ receivedSize: Int64, _ totalSize: Int64) -> Void
