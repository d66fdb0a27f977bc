// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// An ``ImageCache``'s Redis tier, by the names the cache had when Redis was built in.
extension ImageCache {
    /// The storage of the cache's ``RedisTier``, if it has one. Default `nil`.
    public var sharedStorage: RedisStorage.Backend<Data>? { redisTier?.storage }

    /// The fetch leases of the cache's ``RedisTier``, if it has one.
    public var sharedFetches: RedisSingleFlight<Data>? { redisTier?.fetches }

    /// Replaces the cache's ``RedisTier`` (shutting the old one down) with one on `storage`, or
    /// removes it (`nil`); the other tiers stay as they are.
    ///
    /// - Parameters:
    ///   - storage: The storage of the new tier; `nil` removes the tier.
    ///   - leaseDuration: See ``RedisTier/init(storage:leaseDuration:maxWait:)``. Default 5 s.
    ///   - maxWait: See ``RedisTier/init(storage:leaseDuration:maxWait:)``. Default 30 s.
    public func useSharedStorage(
        _ storage: RedisStorage.Backend<Data>?, leaseDuration: Duration = .seconds(5), maxWait: Duration = .seconds(30)
    ) {
        let replacement = storage.map { RedisTier(storage: $0, leaseDuration: leaseDuration, maxWait: maxWait) }
        let previous = updateTiersBelowDisk { tiers -> [RedisTier] in
            let previous = tiers.compactMap { $0 as? RedisTier }
            tiers.removeAll { $0 is RedisTier }
            if let replacement { tiers.append(replacement) }
            return previous
        }
        for tier in previous { tier.shutdown() }
    }

    private var redisTier: RedisTier? {
        tiersBelowDisk.lazy.compactMap { $0 as? RedisTier }.first
    }
}
