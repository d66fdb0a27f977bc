// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// One level of a cache: values by key, read and written asynchronously. ``MemoryStorage``,
/// ``DiskStorage`` and the Redis storage of `KingfisherRedis` are tiers; so is any type an
/// application writes with this protocol alone (a key-value service, an object store).
///
/// ``ImageCache`` searches its memory, then its disk, then the tiers added below the disk with
/// ``ImageCache/addTier(_:)``, in order; what it stores on disk goes to every tier below too,
/// and a value found in a tier is kept on the disk from then on.
///
/// A tier's failures are its own: a tier that throws counts as a miss for reads and as a
/// write that did not happen for stores, and never fails a retrieval.
public protocol CacheTier<Value>: Sendable {
    /// What the tier holds: bytes (`Data`) for the tiers of an ``ImageCache``.
    associatedtype Value: Sendable

    /// A short name for metrics and logs: `memory`, `disk`, `redis`.
    var name: String { get }

    /// The value for `key`, or `nil` when the tier has none (or it expired).
    func get(_ key: String) async throws -> Value?

    /// Stores `value` for `key`, living per `expiration` (`nil`: the tier's own default).
    func put(_ value: Value, forKey key: String, expiration: StorageExpiration?) async throws

    /// Removes the value for `key`; removing a missing key is not an error.
    func remove(_ key: String) async throws

    /// Cluster-wide single flight, for a tier that several processes share: work for a key
    /// (fetching a source) is done by one of them while the others wait for its result to
    /// appear in the tier. Default `nil`: the tier cannot coordinate processes.
    var singleFlight: (any CacheTierSingleFlight)? { get }
}

extension CacheTier {
    /// `nil`: no coordination between processes.
    public var singleFlight: (any CacheTierSingleFlight)? { nil }
}
