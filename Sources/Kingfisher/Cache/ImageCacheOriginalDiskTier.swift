// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The originals on an ``ImageCache``'s disk as a ``CacheTier``, for one retrieval's options:
/// keys are source cache keys, stored as the cache stores an original (no processor
/// identifier), with the options' forced extension; reads extend the entry as the options say
/// and run on the cache's read queue (in place with `loadDiskFileSynchronously`), writes on
/// its I/O queue, so that neither holds a thread of Swift's cooperative pool.
struct ImageCacheOriginalDiskTier: CacheTier {
    let cache: ImageCache
    let options: KingfisherParsedOptionsInfo

    var name: String { "disk" }

    func get(_ key: String) async throws -> Data? {
        let (disk, options) = (cache.diskStorage, options)
        let read: CallbackQueue = options.loadDiskFileSynchronously ? .untouch : .dispatch(cache.readQueue)
        return try await read.perform { () throws(KingfisherError) in
            try disk.value(
                forKey: Self.diskKey(key), forcedExtension: options.forcedExtension,
                extendingExpiration: options.diskCacheAccessExtendingExpiration)
        }
    }

    func put(_ value: Data, forKey key: String, expiration: StorageExpiration?) async throws {
        let (disk, forcedExtension) = (cache.diskStorage, options.forcedExtension)
        try await cache.ioQueue.perform { () throws(KingfisherError) in
            try disk.store(value: value, forKey: Self.diskKey(key), expiration: expiration, forcedExtension: forcedExtension)
        }
    }

    func remove(_ key: String) async throws {
        let (disk, forcedExtension) = (cache.diskStorage, options.forcedExtension)
        try await cache.ioQueue.perform { () throws in
            try disk.remove(forKey: Self.diskKey(key), forcedExtension: forcedExtension)
        }
    }

    /// The disk's key for an original: the source cache key with no processor identifier.
    private static func diskKey(_ key: String) -> String { key.computedKey(with: "") }
}
