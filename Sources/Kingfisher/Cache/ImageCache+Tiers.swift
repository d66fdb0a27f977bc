// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The tiers of ``ImageCache`` below its disk: slower levels (a Redis server several processes
/// share, an object store) that the disk is backed by.
extension ImageCache {
    /// The tiers below the disk, searched in order on a disk miss. What the cache writes to disk
    /// is written to each of them too; a value found in one is kept on this disk from then on
    /// (and the hit reported as `.disk`). Keys are the disk cache's file names (the SHA-256 of
    /// the computed key, with any extension). A tier's failures only make it miss. Setting the
    /// list does not shut down the tiers it drops: their owner does (`useSharedStorage(_:)` of
    /// `KingfisherRedis` shuts down the Redis tier it replaces). Default: none.
    public var tiersBelowDisk: [any CacheTier<Data>] {
        get { lowerTiers.withLock { $0 } }
        set { lowerTiers.withLock { $0 = newValue } }
    }

    /// Puts `tier` below the disk and the tiers added before it, above the source.
    public func addTier(_ tier: any CacheTier<Data>) {
        lowerTiers.withLock { $0.append(tier) }
    }

    /// Changes ``tiersBelowDisk`` in one step (a read and a write that nothing comes between).
    package func updateTiersBelowDisk<Result>(_ change: (inout [any CacheTier<Data>]) -> Result) -> Result {
        lowerTiers.withLock(change)
    }

    /// The originals of this cache as a pipeline's original tiers, for one retrieval's
    /// options: its disk, then the tiers below it, asked by source cache key. A tier below
    /// keeps its single flight only when `coordinatesFetches` (a retrieval that stores no
    /// original would leave processes waiting on it nothing to find).
    func originalTiers(options: KingfisherParsedOptionsInfo, coordinatesFetches: Bool) -> [any CacheTier<Data>] {
        let forcedExtension = options.forcedExtension
        let below = tiersBelowDisk.map { tier -> any CacheTier<Data> in
            RenamedKeysTier(
                base: tier,
                rename: { [self] key in tierKey(forComputedKey: key.computedKey(with: ""), forcedExtension: forcedExtension) },
                keepsSingleFlight: coordinatesFetches)
        }
        return [ImageCacheOriginalDiskTier(cache: self, options: options)] + below
    }

    /// The lower tiers' name for a computed key: the disk cache's file name.
    func tierKey(forComputedKey computedKey: String, forcedExtension: String?) -> String {
        diskStorage.cacheFileName(forKey: computedKey, forcedExtension: forcedExtension)
    }

    /// Writes `data` to every tier below the disk, then calls `done` (at once without one;
    /// after every tier took it or failed to).
    func storeBelowDisk(
        _ data: Data, computedKey: String, forcedExtension: String?, expiration: StorageExpiration?,
        then done: @escaping @Sendable () -> Void
    ) {
        let tiers = tiersBelowDisk
        guard !tiers.isEmpty else { return done() }
        let key = tierKey(forComputedKey: computedKey, forcedExtension: forcedExtension)
        OffPoolExecutor.task {
            await withTaskGroup(of: Void.self) { group in
                for tier in tiers {
                    group.addTask { try? await tier.put(data, forKey: key, expiration: expiration) }
                }
            }
            done()
        }
    }

    /// Removes a computed key from every tier below the disk, in the background: a removed
    /// image must not come back from there at the next disk miss. (Clearing the disk leaves the
    /// tiers alone: other processes may use them.)
    func removeBelowDisk(computedKey: String, forcedExtension: String?) {
        let tiers = tiersBelowDisk
        guard !tiers.isEmpty else { return }
        let key = tierKey(forComputedKey: computedKey, forcedExtension: forcedExtension)
        OffPoolExecutor.task {
            for tier in tiers { try? await tier.remove(key) }
        }
    }

    /// The data for a computed key from the first tier below the disk that has it, also written
    /// to this disk; `nil` when there is no tier, none has it, or they cannot be reached.
    func dataBelowDisk(forComputedKey computedKey: String, forcedExtension: String?, expiration: StorageExpiration?) async -> Data? {
        let key = tierKey(forComputedKey: computedKey, forcedExtension: forcedExtension)
        for tier in tiersBelowDisk {
            guard let data = try? await tier.get(key) else { continue }
            try? diskStorage.store(value: data, forKey: computedKey, expiration: expiration, forcedExtension: forcedExtension)
            return data
        }
        return nil
    }
}
