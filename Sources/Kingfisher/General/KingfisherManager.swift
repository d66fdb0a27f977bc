// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Called when a retrieval's download task changes: a retry or an alternative source starts a
/// new one (`nil` when the new attempt downloads nothing).
public typealias DownloadTaskUpdatedBlock = @Sendable (_ newTask: DownloadTask?) -> Void

/// Finds an image in memory, on disk or at its source, processes it, caches it the way the
/// options say, and hands it back: Kingfisher's `KingfisherManager`.
///
/// The order, as Kingfisher's: memory, then disk, under the processed key (skipped with
/// `forceRefresh`; disk skipped with `fromMemoryCacheOrRefresh`); with a non-default processor
/// or a separate `originalCache`, the original from `originalCache`, processed without touching
/// the network; `onlyFromCache` stops there; then the network or the data provider. The result
/// is stored processed in `targetCache` (memory only with `cacheMemoryOnly`), and the original
/// too with `cacheOriginalImage`; the caller hears back as soon as caching starts, or after it
/// ends with `waitForCache`. `imageModifier` changes what is returned, never what is cached.
/// Failures go to the `retryStrategy`, then to the `alternativeSources` in order.
public final class KingfisherManager: Sendable {
    /// The manager of ``ImageDownloader/default`` and ``ImageCache/default``.
    public static let shared = KingfisherManager(downloader: .default, cache: .default)

    private struct Settings: Sendable {
        var downloader: ImageDownloader
        var cache: ImageCache
        var defaultOptions: KingfisherOptionsInfo = []
    }

    private let settings: Locked<Settings>
    /// Where processors run for cached originals and data providers unless `processingQueue`
    /// says otherwise: concurrent (Kingfisher's is serial).
    private let processingQueue: DispatchQueue

    /// Creates a manager.
    public init(downloader: ImageDownloader, cache: ImageCache) {
        settings = Locked(Settings(downloader: downloader, cache: cache))
        processingQueue = DispatchQueue(label: "com.onevcat.Kingfisher.KingfisherManager.processQueue", attributes: .concurrent)
    }

    /// The downloader used unless options name another.
    public var downloader: ImageDownloader {
        get { settings.withLock { $0.downloader } }
        set { settings.withLock { $0.downloader = newValue } }
    }

    /// The cache used unless options name another.
    public var cache: ImageCache {
        get { settings.withLock { $0.cache } }
        set { settings.withLock { $0.cache = newValue } }
    }

    /// Options applied before each call's own (which win). Default empty.
    public var defaultOptions: KingfisherOptionsInfo {
        get { settings.withLock { $0.defaultOptions } }
        set { settings.withLock { $0.defaultOptions = newValue } }
    }

    /// The options a call runs with: this manager's downloader and cache, then
    /// ``defaultOptions``, then `options`; the last occurrence wins.
    public func parsedOptions(_ options: KingfisherOptionsInfo?) -> KingfisherParsedOptionsInfo {
        let (downloader, cache, defaults) = settings.withLock { ($0.downloader, $0.cache, $0.defaultOptions) }
        return KingfisherParsedOptionsInfo([.downloader(downloader), .targetCache(cache)] + defaults + (options ?? []))
    }

    // MARK: Retrieving

    /// Retrieves the image of `resource` (a file URL is read from disk, anything else
    /// downloaded). Returns the download task when a download or a data provider's load starts
    /// (cancelling it ends the retrieval), `nil` for a cache hit;
    /// `completionHandler` runs on `options.callbackQueue` (default `.mainCurrentOrAsync`).
    @discardableResult
    public func retrieveImage(
        with resource: any Resource, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil,
        downloadTaskUpdated: DownloadTaskUpdatedBlock? = nil,
        completionHandler: (@Sendable (Result<RetrieveImageResult, KingfisherError>) -> Void)?
    ) -> DownloadTask? {
        retrieveImage(
            with: resource.convertToSource(), options: options, progressBlock: progressBlock,
            downloadTaskUpdated: downloadTaskUpdated, completionHandler: completionHandler)
    }

    /// Retrieves the image of `source`; see the resource form.
    @discardableResult
    public func retrieveImage(
        with source: Source, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil,
        downloadTaskUpdated: DownloadTaskUpdatedBlock? = nil,
        completionHandler: (@Sendable (Result<RetrieveImageResult, KingfisherError>) -> Void)?
    ) -> DownloadTask? {
        retrieve(
            source, options: parsedOptions(options), progressBlock: progressBlock, downloadTaskUpdated: downloadTaskUpdated,
            completionHandler: completionHandler ?? { _ in }
        ).downloadTask
    }

    /// Retrieves the image of `resource`; cancelling the calling task cancels the work.
    public func retrieveImage(
        with resource: any Resource, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil
    ) async throws -> RetrieveImageResult {
        try await retrieveImage(with: resource.convertToSource(), options: options, progressBlock: progressBlock)
    }

    /// Retrieves the image of `source`; cancelling the calling task cancels the work.
    public func retrieveImage(
        with source: Source, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil
    ) async throws -> RetrieveImageResult {
        try await retrieveImage(with: source, parsedOptions: parsedOptions(options), progressBlock: progressBlock)
    }

    /// The async form with options already parsed (a missing downloader or cache means this
    /// manager's).
    func retrieveImage(
        with source: Source, parsedOptions: KingfisherParsedOptionsInfo,
        progressBlock: DownloadProgressBlock?
    ) async throws -> RetrieveImageResult {
        var parsed = parsedOptions
        parsed.callbackQueue = .untouch
        guard !Task.isCancelled else { throw KingfisherError.requestError(reason: .asyncTaskContextCancelled) }
        return try await withCancellableWork(
            start: { completion in
                retrieve(source, options: parsed, progressBlock: progressBlock, downloadTaskUpdated: nil, completionHandler: completion)
            }, cancel: { $0.cancel() })
    }

    /// Starts a retrieval with parsed options.
    ///
    /// - Parameter targetCacheChecked: The caller has just found the processed image missing
    ///   from the target cache (the prefetcher), so the first attempt starts after that lookup.
    func retrieve(
        _ source: Source, options: KingfisherParsedOptionsInfo, progressBlock: DownloadProgressBlock?,
        downloadTaskUpdated: DownloadTaskUpdatedBlock?, targetCacheChecked: Bool = false,
        completionHandler: @escaping @Sendable (Result<RetrieveImageResult, KingfisherError>) -> Void
    ) -> ImageRetrieval {
        let retrieval = ImageRetrieval(
            source: source, options: options, downloadTaskUpdated: downloadTaskUpdated,
            completion: completionHandler)
        @Sendable func handle(_ source: Source) -> Completion {
            { result in
                switch result {
                case .success(let image): retrieval.finish(.success(image))
                case .failure(let error): retrieval.failed(source, with: error, load: attempt)
                }
            }
        }
        @Sendable func attempt(_ source: Source) {
            fromCacheOrSource(source, retrieval: retrieval, progressBlock: progressBlock, completion: handle(source))
        }
        if targetCacheChecked {
            fromOriginalOrSource(source, retrieval: retrieval, progressBlock: progressBlock, completion: handle(source))
        } else {
            attempt(source)
        }
        return retrieval
    }

    // MARK: The flow

    typealias Completion = @Sendable (Result<RetrieveImageResult, KingfisherError>) -> Void

    /// - Parameter httpChecked: The HTTP caching headers (under ``HTTPCachePolicy/followHeaders``)
    ///   have already allowed the cached image.
    func fromCacheOrSource(
        _ source: Source, retrieval: ImageRetrieval, progressBlock: DownloadProgressBlock?,
        httpChecked: Bool = false, completion: @escaping Completion
    ) {
        let options = retrieval.workingOptions
        let targetCache = options.targetCache ?? cache
        let key = source.cacheKey
        guard !options.forceRefresh else {
            return throughPipeline(
                source, retrieval: retrieval, progressBlock: progressBlock, searchesOriginals: false, completion: completion)
        }
        if !httpChecked, options.httpCachePolicy == .followHeaders, !options.onlyFromCache, case .network = source {
            return followingHTTPCache(source, retrieval: retrieval, progressBlock: progressBlock, completion: completion)
        }
        let cached = targetCache.imageCachedType(
            forKey: key, processorIdentifier: options.processor.identifier,
            forcedExtension: options.forcedExtension)
        // A miss on this disk may still be a hit in a tier below it, which the disk read asks.
        let mayBeBelowDisk = cached == .none && !targetCache.tiersBelowDisk.isEmpty
        if cached.cached || mayBeBelowDisk, !options.fromMemoryCacheOrRefresh || cached == .memory {
            targetCache.retrieveImage(forKey: key, options: options, callbackQueue: options.callbackQueue) { result in
                if retrieval.isCancelled { return completion(.failure(ImageRetrieval.cancellation)) }
                switch result {
                case .success(let found):
                    guard let cached = found.image else {
                        // Gone since the check (expired or removed): look further.
                        return self.fromOriginalOrSource(source, retrieval: retrieval, progressBlock: progressBlock, completion: completion)
                    }
                    let serializer = options.cacheSerializer
                    let hand: @Sendable (KFCrossPlatformImage) -> Void = { image in
                        completion(
                            .success(
                                RetrieveImageResult(
                                    image: options.imageModifier?.modify(image) ?? image, cacheType: found.cacheType, source: source,
                                    originalSource: retrieval.originalSource, data: { serializer.data(with: image, original: nil) },
                                    metrics: nil)))
                    }
                    if let made = cached.creatingOptions, made != options.imageCreatingOptions,
                        cached.isAnimated || made.onlyFirstFrame, let data = cached.originalData
                    {
                        // Decoded with other options (only its first frame, another scale): made
                        // again from its data for this call, as Kingfisher does; the cache keeps it.
                        return self.process(options, completion: completion, hand) { () throws(KingfisherError) in
                            try options.processor.processedImage(from: data, options: options)
                        }
                    }
                    // A serializer that stores the original data makes a disk hit the unprocessed
                    // image: process it, and keep the processed one in memory (Kingfisher
                    // re-processes memory hits too, processing twice what it stored processed).
                    guard found.cacheType == .disk, serializer.originalDataUsed, !options.processor.identifier.isEmpty else {
                        return hand(cached)
                    }
                    self.process(options, completion: completion) { image in
                        targetCache.store(image, forKey: key, options: options, toDisk: false)
                        hand(image)
                    } making: { () throws(KingfisherError) in
                        try options.processor.processedImage(from: .image(cached), options: options)
                    }
                case .failure(let error):
                    completion(.failure(error))
                }
            }
            return
        }
        fromOriginalOrSource(source, retrieval: retrieval, progressBlock: progressBlock, completion: completion)
    }

    /// The original from `originalCache`, processed (when a processor or a separate original
    /// cache makes that meaningful); else the source itself.
    private func fromOriginalOrSource(
        _ source: Source, retrieval: ImageRetrieval, progressBlock: DownloadProgressBlock?,
        completion: @escaping Completion
    ) {
        let options = retrieval.workingOptions
        let targetCache = options.targetCache ?? cache
        let originalCache = options.originalCache ?? targetCache
        let key = source.cacheKey
        let processor = options.processor
        let lookForOriginal = originalCache !== targetCache || !processor.identifier.isEmpty
        let originalType = lookForOriginal ? originalCache.imageCachedType(forKey: key, forcedExtension: options.forcedExtension) : .none
        // The original's bytes, on disk or in a tier below it, are processed as downloaded data
        // is: the processor decodes them itself, at the reduced scale its output needs (a resize
        // of a large photo never decodes it whole). A serializer of another kind may store
        // bytes only it can read.
        let searchesBytes =
            lookForOriginal && !processor.identifier.isEmpty && !options.fromMemoryCacheOrRefresh
            && Self.decodesStoredData(options.cacheSerializer)
        if searchesBytes, originalType == .disk || (originalType == .none && !originalCache.tiersBelowDisk.isEmpty) {
            return throughPipeline(
                source, retrieval: retrieval, progressBlock: progressBlock, searchesOriginals: true, completion: completion)
        }
        guard originalType.cached, !options.fromMemoryCacheOrRefresh || originalType == .memory else {
            return throughPipeline(
                source, retrieval: retrieval, progressBlock: progressBlock, searchesOriginals: false, completion: completion)
        }
        // The original as an image (in memory, or read by its serializer): processed from it.
        var originalOptions = options
        originalOptions.processor = DefaultImageProcessor.default
        originalCache.retrieveImage(forKey: key, options: originalOptions, callbackQueue: options.callbackQueue) { [options] result in
            if retrieval.isCancelled { return completion(.failure(ImageRetrieval.cancellation)) }
            guard case .success(let found) = result, let original = found.image else {
                return self.throughPipeline(
                    source, retrieval: retrieval, progressBlock: progressBlock, searchesOriginals: false, completion: completion)
            }
            self.process(options, completion: completion) { image in
                self.cacheProcessedOriginal(image, source: source, retrieval: retrieval, completion: completion)
            } making: { () throws(KingfisherError) in
                try processor.processedImage(from: .image(original), options: options)
            }
        }
    }

    /// Whether `serializer` reads its data back by decoding it (the built-in ones), so that a
    /// processor may decode what it stored; another may store bytes only it can read.
    static func decodesStoredData(_ serializer: any CacheSerializer) -> Bool {
        serializer is DefaultCacheSerializer || serializer is FormatIndicatedCacheSerializer
    }

    /// Caches the image processed from the original (under HTTP caching, as a variant of it).
    private func cacheProcessedOriginal(
        _ image: KFCrossPlatformImage, source: Source, retrieval: ImageRetrieval,
        completion: @escaping Completion
    ) {
        let options = retrieval.workingOptions
        let targetCache = options.targetCache ?? cache
        if options.httpCachePolicy == .followHeaders {
            targetCache.httpRecords.addVariant(
                options.processor.identifier, forKey: source.cacheKey, disk: targetCache.diskStorage,
                toDisk: !options.cacheMemoryOnly, expiration: options.diskCacheExpiration)
        }
        cache(
            image, data: nil, source: source, cacheType: .none, metrics: nil, retrieval: retrieval,
            storesOriginal: false, completion: completion)
    }

    /// The rest of the retrieval through a ``RetrievalPipeline`` made of `originalCache`: the
    /// original from its disk or the tiers below it (when `searchesOriginals`; a tier's single
    /// flight lets one process fetch a new source for all that share it), else the source,
    /// downloaded or asked of its provider (unless `onlyFromCache`), processed, and the original
    /// stored with `cacheOriginalImage`. The processed image is then cached as Kingfisher's
    /// options say.
    ///
    /// The pipeline starts on the calling thread (`Task.immediate`), so that a download has
    /// started, and its task is this retrieval's, when `retrieveImage` returns; after its first
    /// suspension it runs on `OffPoolExecutor`.
    func throughPipeline(
        _ source: Source, retrieval: ImageRetrieval, progressBlock: DownloadProgressBlock?, searchesOriginals: Bool,
        completion: @escaping Completion
    ) {
        let options = retrieval.workingOptions
        if retrieval.isCancelled { return completion(.failure(ImageRetrieval.cancellation)) }
        let targetCache = options.targetCache ?? cache
        let originalCache = options.originalCache ?? targetCache
        let storesOriginal = options.cacheOriginalImage && !options.processor.identifier.isEmpty
        let recordsHTTP = options.httpCachePolicy == .followHeaders
        let request = RetrievalRequest(
            source: source, options: options, searchesTiers: searchesOriginals, storesOriginal: storesOriginal,
            progressBlock: callerProgress(progressBlock, retrieval: retrieval),
            caller: RetrievalCaller(
                downloadStarted: { retrieval.started($0) },
                mayStoreFetched: { loaded, requestTime in
                    guard recordsHTTP, let response = loaded.response else { return true }
                    return self.keepRecord(of: response, requestTime: requestTime, forKey: source.cacheKey, options: options)
                }))
        let pipeline = RetrievalPipeline(
            originalTiers: searchesOriginals || storesOriginal
                ? originalCache.originalTiers(options: options, coordinatesFetches: storesOriginal && !options.onlyFromCache) : [],
            downloader: options.downloader ?? downloader, processingQueue: processingQueue)
        if case .provider(let provider) = source, !options.onlyFromCache {
            // Both: the load stops, and a late image (already processing) is dropped.
            retrieval.started(DownloadTask(url: provider.contentURL) { retrieval.cancel() })
        }
        let cancellation: KingfisherError =
            if case .provider(let provider) = source {
                .requestError(reason: .dataProviderCancelled(provider: provider))
            } else {
                ImageRetrieval.cancellation
            }
        // Off the cooperative pool once it suspends: resuming after a download must not queue
        // behind the decoding and processing that fill the pool's few threads.
        retrieval.started(
            Task.immediate(executorPreference: OffPoolExecutor.shared) {
                let response: RetrievalResponse
                do throws(KingfisherError) {
                    response = try await pipeline.retrieve(request)
                } catch {
                    // A provider's load cancelled at any step ends as Kingfisher's does.
                    if case .provider = source, retrieval.isCancelled { return completion(.failure(cancellation)) }
                    return completion(.failure(error))
                }
                if retrieval.isCancelled { return completion(.failure(cancellation)) }
                guard response.answeredBy == .source else {
                    return self.cacheProcessedOriginal(response.image, source: source, retrieval: retrieval, completion: completion)
                }
                self.cache(
                    response.image, data: response.originalData, source: source, cacheType: .none, metrics: response.networkMetrics,
                    retrieval: retrieval, storesOriginal: false, toDisk: response.originalMayBeStored, completion: completion)
            })
    }

    /// Where this retrieval's processors run: `processingQueue` if the options name one, else
    /// the manager's.
    private func processingQueue(for options: KingfisherParsedOptionsInfo) -> CallbackQueue {
        options.processingQueue ?? .dispatch(processingQueue)
    }

    /// Runs `making` where processors run, then hands its image to `then` there, or its error
    /// to `completion`.
    private func process(
        _ options: KingfisherParsedOptionsInfo, completion: @escaping Completion,
        _ then: @escaping @Sendable (KFCrossPlatformImage) -> Void,
        making: @escaping @Sendable () throws(KingfisherError) -> KFCrossPlatformImage
    ) {
        processingQueue(for: options).execute {
            do throws(KingfisherError) {
                then(try making())
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Stores a loaded or processed image (and the original data with `cacheOriginalImage`),
    /// completing when caching starts, or when it ends with `waitForCache`.
    ///
    /// - Parameter toDisk: Whether the image may be written to disk (a `no-store` response
    ///   may not); `cacheMemoryOnly` keeps it in memory anyway.
    func cache(
        _ image: KFCrossPlatformImage, data: Data?, source: Source, cacheType: CacheType, metrics: NetworkMetrics?,
        retrieval: ImageRetrieval, storesOriginal: Bool, toDisk: Bool = true, completion: @escaping Completion
    ) {
        let options = retrieval.workingOptions
        let targetCache = options.targetCache ?? cache
        let originalCache = options.originalCache ?? targetCache
        let key = source.cacheKey
        let serializer = options.cacheSerializer
        let result = RetrieveImageResult(
            image: options.imageModifier?.modify(image) ?? image, cacheType: cacheType, source: source,
            originalSource: retrieval.originalSource, data: { data ?? serializer.data(with: image, original: nil) }, metrics: metrics)
        let stores = DispatchGroup()
        stores.enter()
        targetCache.store(image, original: data, forKey: key, options: options, toDisk: toDisk && !options.cacheMemoryOnly) { _ in
            stores.leave()
        }
        if storesOriginal, toDisk, options.cacheOriginalImage, !options.processor.identifier.isEmpty, let data {
            stores.enter()
            originalCache.storeToDisk(
                data, forKey: key, processorIdentifier: "", forcedExtension: options.forcedExtension,
                expiration: options.diskCacheExpiration
            ) { _ in
                stores.leave()
            }
        }
        if options.waitForCache {
            stores.notify(queue: .global(qos: .userInitiated)) { completion(.success(result)) }
        } else {
            completion(.success(result))
        }
    }
}
