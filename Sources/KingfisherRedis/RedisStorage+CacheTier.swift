// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// Redis as a ``CacheTier``: values every process using the server and prefix shares. Plain
/// storage, without coordination; ``RedisTier`` adds fetch leases.
extension RedisStorage.Backend: CacheTier {
    /// `redis`.
    public var name: String { "redis" }

    /// ``RedisStorage/Backend/value(forKey:)``.
    public func get(_ key: String) async throws -> T? {
        try await value(forKey: key)
    }

    /// ``RedisStorage/Backend/store(value:forKey:expiration:)``.
    public func put(_ value: T, forKey key: String, expiration: StorageExpiration?) async throws {
        try await store(value: value, forKey: key, expiration: expiration)
    }

    /// ``RedisStorage/Backend/remove(forKey:)``.
    public func remove(_ key: String) async throws {
        try await remove(forKey: key)
    }
}
