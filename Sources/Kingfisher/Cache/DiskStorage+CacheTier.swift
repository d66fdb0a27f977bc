// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The disk cache as a ``CacheTier``: files named by the key's SHA-256, without a forced
/// extension; reads extend a file's lifetime by its own, as
/// ``DiskStorage/Backend/value(forKey:forcedExtension:extendingExpiration:)`` does by default.
extension DiskStorage.Backend: CacheTier {
    /// `disk`.
    public var name: String { "disk" }

    /// ``DiskStorage/Backend/value(forKey:forcedExtension:extendingExpiration:)``.
    public func get(_ key: String) async throws -> T? {
        try value(forKey: key)
    }

    /// ``DiskStorage/Backend/store(value:forKey:expiration:writeOptions:forcedExtension:)``.
    public func put(_ value: T, forKey key: String, expiration: StorageExpiration?) async throws {
        try store(value: value, forKey: key, expiration: expiration)
    }

    /// ``DiskStorage/Backend/remove(forKey:forcedExtension:)``.
    public func remove(_ key: String) async throws {
        try remove(forKey: key)
    }
}
