// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import NIOCore

/// The shared level of ``ImageCache``: a ``RedisStorage`` below memory and disk, which every
/// process using the same Redis server and prefix reads and writes, and the fetch leases that
/// let one of those processes download an original for all of them.
extension ImageCache {
    /// What ``sharedStorage`` keeps together.
    struct SharedLevel: Sendable {
        let storage: RedisStorage.Backend<Data>
        let fetches: RedisSingleFlight<Data>
    }

    /// A third level below memory and disk, shared by processes (several nodes of a service):
    /// what this cache writes to disk is written there too, and a disk miss looks there before
    /// it counts as a miss (a hit is then kept on this disk as well, and reported as `.disk`).
    /// Keys are the disk cache's file names under the storage's prefix. Redis failures never
    /// fail the cache: they only make the level miss. Setting it uses the default leases of
    /// ``useSharedStorage(_:leaseDuration:maxWait:)``. Default `nil`: no shared level.
    public var sharedStorage: RedisStorage.Backend<Data>? {
        get { shared.withLock { $0?.storage } }
        set { useSharedStorage(newValue) }
    }

    /// Where ``KingfisherManager`` takes a lease before it downloads an original for this cache,
    /// so that processes sharing ``sharedStorage`` fetch a new source once among them (the
    /// others wait for the original to appear in the shared level); `nil` without a shared level.
    public var sharedFetches: RedisSingleFlight<Data>? { shared.withLock { $0?.fetches } }

    /// Sets ``sharedStorage`` (`nil`: none) with its fetch leases.
    ///
    /// - Parameters:
    ///   - leaseDuration: How long a fetch lease lives without renewal: the longest a process
    ///     that died while fetching delays the others. Default 5 s.
    ///   - maxWait: How long a process waits for another's fetch before fetching itself.
    ///     Default 30 s.
    public func useSharedStorage(
        _ storage: RedisStorage.Backend<Data>?, leaseDuration: TimeAmount = .seconds(5),
        maxWait: TimeAmount = .seconds(30)
    ) {
        let level = storage.map {
            SharedLevel(storage: $0, fetches: RedisSingleFlight(storage: $0, leaseDuration: leaseDuration, maxWait: maxWait))
        }
        let previous = shared.withLock { state in
            defer { state = level }
            return state
        }
        previous?.fetches.shutdown()
    }

    /// The shared level's name for a computed key: the disk cache's file name.
    func sharedName(forComputedKey computedKey: String, forcedExtension: String?) -> String {
        diskStorage.cacheFileName(forKey: computedKey, forcedExtension: forcedExtension)
    }

    /// Writes `data` to the shared level, if there is one, then calls `done` (at once without
    /// one; after Redis took it or failed to).
    func storeShared(
        _ data: Data, computedKey: String, forcedExtension: String?, expiration: StorageExpiration?,
        then done: @escaping @Sendable () -> Void
    ) {
        guard let storage = sharedStorage else { return done() }
        let name = sharedName(forComputedKey: computedKey, forcedExtension: forcedExtension)
        OffPoolExecutor.task {
            _ = try? await storage.store(value: data, forKey: name, expiration: expiration)
            done()
        }
    }

    /// Removes a computed key from the shared level in the background, if there is one: a
    /// removed image must not come back from there at the next disk miss. (Clearing the disk
    /// cache leaves the shared level alone: other processes still use it.)
    func removeShared(computedKey: String, forcedExtension: String?) {
        guard let storage = sharedStorage else { return }
        let name = sharedName(forComputedKey: computedKey, forcedExtension: forcedExtension)
        OffPoolExecutor.task { _ = try? await storage.remove(forKey: name) }
    }

    /// The shared level's data for a computed key, also written to this disk; `nil` when there
    /// is no shared level, it has none, or Redis cannot be reached.
    func sharedData(forComputedKey computedKey: String, forcedExtension: String?, expiration: StorageExpiration?) async -> Data? {
        guard let storage = sharedStorage else { return nil }
        let name = sharedName(forComputedKey: computedKey, forcedExtension: forcedExtension)
        guard let data = try? await storage.value(forKey: name) else { return nil }
        try? diskStorage.store(value: data, forKey: computedKey, expiration: expiration, forcedExtension: forcedExtension)
        return data
    }
}
