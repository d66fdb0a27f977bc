// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What ``KingfisherManager`` hands back.
public struct RetrieveImageResult: Sendable {
    /// The image, processed and (when the options say) modified.
    public let image: KFCrossPlatformImage
    /// Where it came from: `.memory`, `.disk`, or `.none` (loaded from the source).
    public let cacheType: CacheType
    /// The source that produced it (an alternative source when the original failed).
    public let source: Source
    /// The source originally asked for.
    public let originalSource: Source
    /// The image's data: the downloaded bytes, or the cache serializer's rendering of a cached
    /// image (computed when called).
    public let data: @Sendable () -> Data?
    /// How the download went; `nil` unless the image was downloaded.
    public let metrics: NetworkMetrics?

    /// Creates a result, as the manager does (and a test or a custom loader may).
    ///
    /// - Parameters:
    ///   - image: The image, processed and (when the options say) modified.
    ///   - cacheType: Where it came from: `.memory`, `.disk`, or `.none` (loaded from the source).
    ///   - source: The source that produced it.
    ///   - originalSource: The source originally asked for.
    ///   - data: The image's data, computed when called.
    ///   - metrics: Default `nil`.
    public init(
        image: KFCrossPlatformImage, cacheType: CacheType, source: Source, originalSource: Source,
        data: @escaping @Sendable () -> Data?, metrics: NetworkMetrics? = nil
    ) {
        self.image = image
        self.cacheType = cacheType
        self.source = source
        self.originalSource = originalSource
        self.data = data
        self.metrics = metrics
    }
}
