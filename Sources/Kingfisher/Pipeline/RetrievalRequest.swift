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
    /// What the source may be before it is decoded. Default ``RetrievalLimits/init(maxPixelCount:maxFrameCount:maxResultPixelCount:pixelMemory:)``.
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
    /// Whether the tiers are searched before the source is fetched. Default `true`; `false`
    /// fetches the source anyway (Kingfisher's `forceRefresh`) and still stores what it fetched.
    public var searchesTiers: Bool
    /// Whether the source may be fetched when no tier has the image. Default `true`; `false`
    /// fails such a request with ``KingfisherError/CacheErrorReason/imageNotExisting(key:)``
    /// (Kingfisher's `onlyFromCache`).
    public var fetchesSource: Bool
    /// Whether a fetched original is stored in the original tiers. Default `true`; `false`
    /// stores only the processed image, and no single flight is taken (the processes waiting
    /// on it would find nothing).
    public var storesOriginal: Bool
    /// Whether the answer waits until what the retrieval stores is stored. Default `true`;
    /// `false` answers at once and stores after (the process holding a single flight still
    /// tells the others only once the original is stored).
    public var waitsForStores: Bool
    /// Told how much of the source has been downloaded, on the downloader's queue. Default `nil`.
    public var progressBlock: DownloadProgressBlock?
    /// Where decoding and processing wait their turn, so that fetching holds no turn. Default
    /// `nil`: the downloader decodes as the body ends.
    public var processingGate: (any RetrievalProcessingGate)?
    /// What a ``KingfisherManager`` adds: its options, and hooks for its download task and its
    /// HTTP caching.
    package var caller: RetrievalCaller?

    /// A request; see each property for its default.
    public init(
        source: Source, processor: any ImageProcessor = DefaultImageProcessor.default, limits: RetrievalLimits = RetrievalLimits(),
        serializer: any CacheSerializer = DefaultCacheSerializer.default, scale: CGFloat = 1, expiration: StorageExpiration? = nil,
        redirectHandler: (any ImageDownloadRedirectHandler)? = nil, searchesTiers: Bool = true, fetchesSource: Bool = true,
        storesOriginal: Bool = true, waitsForStores: Bool = true, progressBlock: DownloadProgressBlock? = nil,
        processingGate: (any RetrievalProcessingGate)? = nil
    ) {
        self.source = source
        self.processor = processor
        self.limits = limits
        self.serializer = serializer
        self.scale = scale
        self.expiration = expiration
        self.redirectHandler = redirectHandler
        self.searchesTiers = searchesTiers
        self.fetchesSource = fetchesSource
        self.storesOriginal = storesOriginal
        self.waitsForStores = waitsForStores
        self.progressBlock = progressBlock
        self.processingGate = processingGate
    }

    /// A request made of a manager's parsed options: processed, downloaded and stored as they
    /// say (processor, serializer, scale, limits, creating options, request modifiers, disk
    /// expiration, `onlyFromCache`, `waitForCache`). Whether tiers are searched and the
    /// original stored is the manager's decision, made from more than these options.
    package init(
        source: Source, options: KingfisherParsedOptionsInfo, searchesTiers: Bool, storesOriginal: Bool,
        progressBlock: DownloadProgressBlock?, caller: RetrievalCaller
    ) {
        self.init(
            source: source, processor: options.processor,
            limits: RetrievalLimits(maxPixelCount: options.maxPixelCount, maxFrameCount: options.maxFrameCount),
            serializer: options.cacheSerializer, scale: options.scaleFactor, expiration: options.diskCacheExpiration,
            redirectHandler: options.redirectHandler, searchesTiers: searchesTiers, fetchesSource: !options.onlyFromCache,
            storesOriginal: storesOriginal, waitsForStores: options.waitForCache, progressBlock: progressBlock)
        var caller = caller
        caller.options = options
        caller.options?.callbackQueue = .untouch
        self.caller = caller
    }

    /// The key of the original in the original tiers: the source's cache key.
    public var originalKey: String { source.cacheKey }

    /// The key of the processed image in the processed tiers: the source's cache key, then
    /// `@` and the processor's identifier (none for the default processor), as ``ImageCache``'s.
    public var processedKey: String { source.cacheKey.computedKey(with: processor.identifier) }

    /// The options the downloader and the processor read.
    func parsedOptions(downloader: ImageDownloader) -> KingfisherParsedOptionsInfo {
        if let options = caller?.options { return options }
        var options = KingfisherParsedOptionsInfo(nil)
        options.downloader = downloader
        options.processor = processor
        options.cacheSerializer = serializer
        options.scaleFactor = scale
        options.maxPixelCount = limits.maxPixelCount
        options.maxFrameCount = limits.maxFrameCount
        options.maxOutputPixelCount = limits.maxResultPixelCount
        options.pixelMemory = limits.pixelMemory
        options.redirectHandler = redirectHandler
        options.callbackQueue = .untouch
        return options
    }
}
