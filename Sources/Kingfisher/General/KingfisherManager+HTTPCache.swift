// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// ``HTTPCachePolicy/followHeaders``: whether a cached image may be used as it is, its
/// revalidation when stale, and the records kept for downloaded responses.
extension KingfisherManager {
    /// Uses the cached image while its response is fresh; revalidates it once stale; downloads
    /// when there is nothing to revalidate.
    func followingHTTPCache(
        _ source: Source, retrieval: ImageRetrieval, progressBlock: DownloadProgressBlock?,
        completion: @escaping Completion
    ) {
        let options = retrieval.workingOptions
        let targetCache = options.targetCache ?? cache
        let key = source.cacheKey
        guard let record = targetCache.httpRecords.record(forKey: key, disk: targetCache.diskStorage) else {
            // Cached (if at all) without its response's headers: how fresh it is cannot be known.
            return throughPipeline(
                source, retrieval: retrieval, progressBlock: progressBlock, searchesOriginals: false, completion: completion)
        }
        if record.isFresh(at: Date()) {
            return fromCacheOrSource(source, retrieval: retrieval, progressBlock: progressBlock, httpChecked: true, completion: completion)
        }
        guard case .network(let resource) = source, let validators = record.validators, hasCachedImage(forKey: key, options: options) else {
            return throughPipeline(
                source, retrieval: retrieval, progressBlock: progressBlock, searchesOriginals: false, completion: completion)
        }
        let downloader = options.downloader ?? self.downloader
        let requestTime = Date()
        let task = downloader.download(
            resource.downloadURL, options: options, validators: validators,
            progressBlock: callerProgress(progressBlock, retrieval: retrieval)
        ) { result in
            switch result {
            case .success(.notModified(let response)):
                self.keepRevalidated(
                    record.revalidated(by: response, requestTime: requestTime, responseTime: Date()),
                    forKey: key, options: options)
                self.fromCacheOrSource(
                    source, retrieval: retrieval, progressBlock: progressBlock, httpChecked: true, completion: completion)
            case .success(.fetched(_, let body)):
                // Not asked for (this download decodes): a status without an image.
                completion(.failure(.responseError(reason: .invalidHTTPStatusCode(response: body.response.httpURLResponse))))
            case .success(.downloaded(let loaded, let response)):
                self.cacheDownloaded(
                    loaded, response: response, requestTime: requestTime, source: source, retrieval: retrieval,
                    completion: completion)
            case .failure(let error):
                // RFC 9111 §4.2.4: a stale response may stand in while the origin cannot be reached.
                guard record.mayServeStale, case .responseError(reason: .URLSessionError) = error else {
                    return completion(.failure(error))
                }
                self.fromCacheOrSource(
                    source, retrieval: retrieval, progressBlock: progressBlock, httpChecked: true, completion: completion)
            }
        }
        retrieval.started(task)
    }

    /// Caches a downloaded image; under ``HTTPCachePolicy/followHeaders`` keeps its response's
    /// record too, and writes nothing to disk for a `no-store` response.
    func cacheDownloaded(
        _ loaded: ImageLoadingResult, response: TransportResponse?, requestTime: Date, source: Source,
        retrieval: ImageRetrieval, completion: @escaping Completion
    ) {
        let options = retrieval.workingOptions
        var toDisk = true
        if options.httpCachePolicy == .followHeaders, let response {
            toDisk = keepRecord(of: response, requestTime: requestTime, forKey: source.cacheKey, options: options)
        }
        cache(
            loaded.image, data: loaded.originalData, source: source, cacheType: .none, metrics: loaded.metrics,
            retrieval: retrieval, storesOriginal: true, toDisk: toDisk, completion: completion)
    }

    /// A progress block that reports on the caller's queue, or `nil`.
    func callerProgress(_ progressBlock: DownloadProgressBlock?, retrieval: ImageRetrieval) -> DownloadProgressBlock? {
        guard let progressBlock else { return nil }
        let callerQueue = retrieval.options.callbackQueue
        return { received, total in callerQueue.execute { progressBlock(received, total) } }
    }

    // MARK: Records

    /// Whether the processed image or its original is cached (else there is nothing to revalidate).
    private func hasCachedImage(forKey key: String, options: KingfisherParsedOptionsInfo) -> Bool {
        let targetCache = options.targetCache ?? cache
        let originalCache = options.originalCache ?? targetCache
        return targetCache.imageCachedType(
            forKey: key, processorIdentifier: options.processor.identifier,
            forcedExtension: options.forcedExtension
        ).cached
            || originalCache.imageCachedType(forKey: key, forcedExtension: options.forcedExtension).cached
    }

    /// Keeps the record of a fresh download for `key`; returns whether the image may be written
    /// to disk. Variants cached from a different earlier response are removed: they show an image
    /// the origin has replaced.
    func keepRecord(
        of response: TransportResponse, requestTime: Date, forKey key: String,
        options: KingfisherParsedOptionsInfo
    ) -> Bool {
        let targetCache = options.targetCache ?? cache
        let disk = targetCache.diskStorage
        var record = HTTPCacheRecord(response: response, requestTime: requestTime, responseTime: Date())
        let previous = targetCache.httpRecords.record(forKey: key, disk: disk)
        var variants: Set<String> = [options.processor.identifier]
        if options.cacheOriginalImage { variants.insert("") }
        guard record.isStorable else {
            targetCache.httpRecords.remove(forKey: key, disk: disk)
            removeVariants(previous?.variants ?? [], forKey: key, options: options)
            return false
        }
        if let previous {
            if previous.validators != nil, previous.validators == record.validators {
                variants.formUnion(previous.variants)
            } else {
                removeVariants(previous.variants.subtracting(variants), forKey: key, options: options)
            }
        }
        record.variants = variants
        targetCache.httpRecords.store(
            record, forKey: key, disk: disk, toDisk: !options.cacheMemoryOnly,
            expiration: options.diskCacheExpiration)
        return true
    }

    /// Keeps a revalidated record and extends the expiration of every cached variant, in memory
    /// and on disk, as reading them would.
    private func keepRevalidated(_ record: HTTPCacheRecord, forKey key: String, options: KingfisherParsedOptionsInfo) {
        let targetCache = options.targetCache ?? cache
        targetCache.httpRecords.store(
            record, forKey: key, disk: targetCache.diskStorage, toDisk: !options.cacheMemoryOnly,
            expiration: options.diskCacheExpiration)
        for (cache, identifier) in variantLocations(record.variants, options: options) {
            let computedKey = key.computedKey(with: identifier)
            _ = cache.memoryStorage.value(forKey: computedKey, extendingExpiration: options.memoryCacheAccessExtendingExpiration)
            cache.diskStorage.extendExpiration(
                forKey: computedKey, forcedExtension: options.forcedExtension,
                extendingExpiration: options.diskCacheAccessExtendingExpiration)
        }
    }

    private func removeVariants(_ variants: Set<String>, forKey key: String, options: KingfisherParsedOptionsInfo) {
        for (cache, identifier) in variantLocations(variants, options: options) {
            cache.removeImage(forKey: key, processorIdentifier: identifier, forcedExtension: options.forcedExtension)
        }
    }

    /// Where each variant lives: processed ones in the target cache, the original there and in
    /// the original cache.
    private func variantLocations(_ variants: Set<String>, options: KingfisherParsedOptionsInfo) -> [(ImageCache, String)] {
        let targetCache = options.targetCache ?? cache
        let originalCache = options.originalCache ?? targetCache
        return variants.flatMap { identifier -> [(ImageCache, String)] in
            identifier.isEmpty && originalCache !== targetCache ? [(targetCache, ""), (originalCache, "")] : [(targetCache, identifier)]
        }
    }
}
