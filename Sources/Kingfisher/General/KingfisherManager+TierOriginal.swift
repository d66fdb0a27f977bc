// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Originals for caches with tiers below the disk (``ImageCache/tiersBelowDisk``): found where
/// another process stored them, or fetched by one process for all that want them at once.
extension KingfisherManager {
    /// What a process had for an original that was on none of its own levels.
    private enum TierOriginal: Sendable {
        /// The original's bytes from a tier below the disk (now on this disk too).
        case stored(Data)
        /// The retrieval this process ran itself: holding the key, or without the tier.
        case loaded(RetrieveImageResult)
    }

    /// An original missing from this process's memory and disk: processed from a lower tier's
    /// bytes if another process stored it; else fetched by one process among those sharing the
    /// tier, when a tier offers a ``CacheTierSingleFlight``. The process holding the key
    /// downloads and stores the original, in the tiers too, before it tells the others; they
    /// wait for it and process what it stored. A holder that fails lets the next one try; with
    /// the tier unreachable every process downloads for itself.
    ///
    /// Only a retrieval that keeps the original (``KingfisherOptionsInfoItem/cacheOriginalImage``)
    /// takes the key: another would leave the waiters nothing to find. (Neither does one whose
    /// response says `no-store` under ``HTTPCachePolicy/followHeaders``: told, its waiters find
    /// nothing and fetch in turn.)
    func fromTierOriginal(
        _ source: Source, in originalCache: ImageCache, retrieval: ImageRetrieval,
        progressBlock: DownloadProgressBlock?, completion: @escaping Completion
    ) {
        let options = retrieval.workingOptions
        let computedKey = source.cacheKey.computedKey(with: "")
        let find: @Sendable () async -> TierOriginal? = {
            await originalCache.dataBelowDisk(
                forComputedKey: computedKey, forcedExtension: options.forcedExtension,
                expiration: options.diskCacheExpiration
            ).map(TierOriginal.stored)
        }
        let fetches = options.cacheOriginalImage && !options.onlyFromCache ? originalCache.fetchSingleFlight : nil
        retrieval.started(
            OffPoolExecutor.task {
                let had: TierOriginal?
                do {
                    if let fetches {
                        let name = originalCache.tierKey(forComputedKey: computedKey, forcedExtension: options.forcedExtension)
                        had = try await fetches.run(forKey: name, find: find) {
                            // The waiters look for the original once told: they are told once it
                            // is stored, which this retrieval does not wait for.
                            let (stored, storing) = AsyncStream<Never>.makeStream()
                            retrieval.whenStored = { storing.finish() }
                            let loaded = await withCheckedContinuation { continuation in
                                self.load(source, retrieval: retrieval, progressBlock: progressBlock) { continuation.resume(returning: $0) }
                            }
                            return (.loaded(try loaded.get()), kept: { for await _ in stored {} })
                        }.0
                    } else {
                        had = await find()
                    }
                } catch let error as KingfisherError {
                    return completion(.failure(error))
                } catch {
                    return completion(.failure(ImageRetrieval.cancellation))
                }
                switch had {
                case .stored(let data):
                    self.fromOriginalData(
                        source, in: originalCache, data: data, retrieval: retrieval,
                        progressBlock: progressBlock, completion: completion)
                case .loaded(let result):
                    completion(.success(result))
                case nil:
                    self.originalMissing(source, retrieval: retrieval, progressBlock: progressBlock, completion: completion)
                }
            })
    }
}
