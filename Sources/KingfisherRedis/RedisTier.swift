// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// Redis below an `ImageCache`'s disk, with fetch leases: every process using the same
/// server and prefix finds what any of them stored, and a source none of them has is fetched
/// by one while the others wait for it (``RedisSingleFlight``).
///
/// ```swift
/// let client = RedisClient(configuration: try RedisClient.Configuration(url: redisURL))
/// let tier = RedisTier(storage: RedisStorage.Backend(config: RedisStorage.Config(client: client)))
/// cache.addTier(tier)
/// ```
public struct RedisTier: CacheTier {
    /// Where values are shared.
    public let storage: RedisStorage.Backend<Data>
    /// The leases processes take before fetching a source for the tier.
    public let fetches: RedisSingleFlight<Data>

    /// A tier on `storage`.
    ///
    /// - Parameters:
    ///   - storage: Where values are shared.
    ///   - leaseDuration: How long a fetch lease lives without renewal: the longest a process
    ///     that died while fetching delays the others. Default 5 s.
    ///   - maxWait: How long a process waits for another's fetch before fetching itself.
    ///     Default 30 s.
    public init(storage: RedisStorage.Backend<Data>, leaseDuration: Duration = .seconds(5), maxWait: Duration = .seconds(30)) {
        self.storage = storage
        fetches = RedisSingleFlight(storage: storage, leaseDuration: leaseDuration, maxWait: maxWait)
    }

    /// `redis`.
    public var name: String { storage.name }

    /// The value in Redis for `key`.
    public func get(_ key: String) async throws -> Data? {
        try await storage.get(key)
    }

    /// Stores `value` in Redis for `key`.
    public func put(_ value: Data, forKey key: String, expiration: StorageExpiration?) async throws {
        try await storage.put(value, forKey: key, expiration: expiration)
    }

    /// Removes the value in Redis for `key`.
    public func remove(_ key: String) async throws {
        try await storage.remove(key)
    }

    /// ``fetches``.
    public var singleFlight: (any CacheTierSingleFlight)? { fetches }

    /// Closes the lease notifications' subscription; waits under way stop waiting.
    public func shutdown() {
        fetches.shutdown()
    }
}
