// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The memory cache as a ``CacheTier``: reads extend an item's lifetime as
/// ``MemoryStorage/Backend/value(forKey:extendingExpiration:)`` does by default.
extension MemoryStorage.Backend: CacheTier {
    /// `memory`.
    public var name: String { "memory" }

    /// ``MemoryStorage/Backend/value(forKey:extendingExpiration:)`` with `.cacheTime`.
    public func get(_ key: String) async throws -> T? {
        value(forKey: key)
    }

    /// ``MemoryStorage/Backend/store(value:forKey:expiration:)``.
    public func put(_ value: T, forKey key: String, expiration: StorageExpiration?) async throws {
        store(value: value, forKey: key, expiration: expiration)
    }

    /// ``MemoryStorage/Backend/remove(forKey:)``.
    public func remove(_ key: String) async throws {
        remove(forKey: key)
    }
}
