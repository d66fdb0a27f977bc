import Foundation

/// The shared level of ``ImageCache``: a ``RedisStorage`` below memory and disk, which every
/// process using the same Redis server and prefix reads and writes.
extension ImageCache {
    /// A third level below memory and disk, shared by processes (several nodes of a service):
    /// what this cache writes to disk is written there too, and a disk miss looks there before
    /// it counts as a miss (a hit is then kept on this disk as well, and reported as `.disk`).
    /// Keys are the disk cache's file names under the storage's prefix. Redis failures never
    /// fail the cache: they only make the level miss. Default `nil`: no shared level.
    public var sharedStorage: RedisStorage.Backend<Data>? {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }

    /// Writes `data` to the shared level in the background, if there is one.
    func storeShared(_ data: Data, computedKey: String, forcedExtension: String?, expiration: StorageExpiration?) {
        guard let storage = sharedStorage else { return }
        let name = diskStorage.cacheFileName(forKey: computedKey, forcedExtension: forcedExtension)
        Task { _ = try? await storage.store(value: data, forKey: name, expiration: expiration) }
    }

    /// Removes a computed key from the shared level in the background, if there is one: a
    /// removed image must not come back from there at the next disk miss. (Clearing the disk
    /// cache leaves the shared level alone: other processes still use it.)
    func removeShared(computedKey: String, forcedExtension: String?) {
        guard let storage = sharedStorage else { return }
        let name = diskStorage.cacheFileName(forKey: computedKey, forcedExtension: forcedExtension)
        Task { try? await storage.remove(forKey: name) }
    }

    /// The shared level's data for a computed key, also written to this disk; `nil` when there
    /// is no shared level, it has none, or Redis cannot be reached.
    func sharedData(forComputedKey computedKey: String, forcedExtension: String?, expiration: StorageExpiration?) async -> Data? {
        guard let storage = sharedStorage else { return nil }
        let name = diskStorage.cacheFileName(forKey: computedKey, forcedExtension: forcedExtension)
        guard let data = try? await storage.value(forKey: name) else { return nil }
        try? diskStorage.store(value: data, forKey: computedKey, expiration: expiration, forcedExtension: forcedExtension)
        return data
    }
}
