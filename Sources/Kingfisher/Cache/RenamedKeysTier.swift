// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A tier seen under other keys: each key is renamed before it reaches `base` (an
/// ``ImageCache``'s tiers below the disk are keyed by the disk's file names, a pipeline asks by
/// source cache key). The single flight, when kept, is renamed too; dropping it makes the tier
/// one that cannot coordinate processes.
struct RenamedKeysTier<Value: Sendable>: CacheTier {
    let base: any CacheTier<Value>
    let rename: @Sendable (String) -> String
    let keepsSingleFlight: Bool

    var name: String { base.name }

    func get(_ key: String) async throws -> Value? {
        try await base.get(rename(key))
    }

    func put(_ value: Value, forKey key: String, expiration: StorageExpiration?) async throws {
        try await base.put(value, forKey: rename(key), expiration: expiration)
    }

    func remove(_ key: String) async throws {
        try await base.remove(rename(key))
    }

    var singleFlight: (any CacheTierSingleFlight)? {
        guard keepsSingleFlight, let flight = base.singleFlight else { return nil }
        return RenamedSingleFlight(base: flight, rename: rename)
    }
}

/// A single flight whose keys are renamed, as ``RenamedKeysTier``'s.
private struct RenamedSingleFlight: CacheTierSingleFlight {
    let base: any CacheTierSingleFlight
    let rename: @Sendable (String) -> String

    func run<V: Sendable>(
        forKey key: String, find: () async -> V?, make: () async throws -> (V, kept: (@Sendable () async -> Void)?)
    ) async throws -> (V, SingleFlightOutcome) {
        try await base.run(forKey: rename(key), find: find, make: make)
    }
}
