// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a ``RetrievalPipeline`` is asked for: a source, the processing, and the options that
/// change the answer.
public struct RetrievalRequest: Sendable {
    /// Where the original comes from: the network or a data provider.
    public var source: Source
    /// What is made of the original. Default `DefaultImageProcessor/default` (the image as it is).
    public var processor: any ImageProcessor
    /// What the source may be before it is decoded. Default ``RetrievalLimits/init(maxPixelCount:maxFrameCount:)``.
    public var limits: RetrievalLimits
    /// How the response's ``RetrievalResponse/data()`` turns the image into bytes. Default
    /// ``DefaultCacheSerializer/default``.
    public var serializer: any CacheSerializer
    /// The scale images are made at. Default 1.
    public var scale: CGFloat
    /// How long a fetched original lives in the pipeline's tiers. Default `nil`: each tier's own.
    public var expiration: StorageExpiration?
    /// Decides the source's redirects; an ``ImageDownloadRedirectPolicy`` fails the retrieval
    /// with its reason. Default `nil`: redirects are followed up to the downloader's limit.
    public var redirectHandler: (any ImageDownloadRedirectHandler)?

    /// A request; see each property for its default.
    public init(
        source: Source, processor: any ImageProcessor = DefaultImageProcessor.default, limits: RetrievalLimits = RetrievalLimits(),
        serializer: any CacheSerializer = DefaultCacheSerializer.default, scale: CGFloat = 1, expiration: StorageExpiration? = nil,
        redirectHandler: (any ImageDownloadRedirectHandler)? = nil
    ) {
        self.source = source
        self.processor = processor
        self.limits = limits
        self.serializer = serializer
        self.scale = scale
        self.expiration = expiration
        self.redirectHandler = redirectHandler
    }

    /// The key of the original in the original tiers: the source's cache key.
    public var originalKey: String { source.cacheKey }

    /// The key of the processed image in the processed tiers: the source's cache key, then
    /// `@` and the processor's identifier (none for the default processor), as ``ImageCache``'s.
    public var processedKey: String { source.cacheKey.computedKey(with: processor.identifier) }

    /// The options the downloader and the processor read.
    func parsedOptions(downloader: ImageDownloader) -> KingfisherParsedOptionsInfo {
        var options = KingfisherParsedOptionsInfo(nil)
        options.downloader = downloader
        options.processor = processor
        options.cacheSerializer = serializer
        options.scaleFactor = scale
        options.maxPixelCount = limits.maxPixelCount
        options.maxFrameCount = limits.maxFrameCount
        options.redirectHandler = redirectHandler
        options.callbackQueue = .untouch
        return options
    }
}
