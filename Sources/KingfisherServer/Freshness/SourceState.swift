// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Crypto
import Foundation
import Kingfisher

/// What the service knows of a network source as the origin last described it: the response's
/// validators and freshness, and a version naming that content. The keys of the source's
/// original and of every result made from it include the version, so that a changed source
/// has none of the old ones.
struct SourceState: Codable, Sendable, Equatable {
    /// The caching fields of the origin's last response, and when it came.
    var record: HTTPCacheRecord
    /// Names the content: empty for the content the service first saw (its keys are the
    /// source's address alone); after a change, from its `ETag`, else its `Last-Modified`,
    /// else its bytes, so that the same content gives the same version on every node.
    var version: String

    /// The state of a source first seen at `now`, before anything is known of it: stale once
    /// the minimum TTL has passed, unless a fetch teaches its response's fields first.
    static func firstSeen(at now: Date) -> SourceState {
        SourceState(record: HTTPCacheRecord(fields: [:], responseTime: now), version: "")
    }

    private init(record: HTTPCacheRecord, version: String) {
        self.record = record
        self.version = version
    }

    /// The state of a response that brought the source's bytes.
    init(response: TransportResponse, body: Data, requestTime: Date, responseTime: Date) {
        record = HTTPCacheRecord(response: response, requestTime: requestTime, responseTime: responseTime)
        let validators = record.validators
        let named = validators.map { Data("\($0.entityTag ?? "")|\($0.lastModified ?? "")".utf8) } ?? body
        version = Base64URL.encode(SHA256.hash(data: named).prefix(9))
    }

    /// The state of the same content after a response that brought it (a fetch of the
    /// retrieval): its fields replace what was known.
    func learning(_ response: TransportResponse, requestTime: Date, responseTime: Date) -> SourceState {
        SourceState(record: HTTPCacheRecord(response: response, requestTime: requestTime, responseTime: responseTime), version: version)
    }

    /// The state after a `304` for it: the same content, renewed.
    func renewed(by response: TransportResponse, requestTime: Date, responseTime: Date) -> SourceState {
        var state = self
        state.record = record.revalidated(by: response, requestTime: requestTime, responseTime: responseTime)
        return state
    }

    /// How long the state is used without asking the origin: the response's freshness
    /// lifetime (0 for `no-cache`) bounded by the service's `bounds`.
    func lifetime(within bounds: ClosedRange<TimeInterval>) -> TimeInterval {
        let said = record.requiresRevalidation ? 0 : record.freshnessLifetime
        return min(max(said, bounds.lowerBound), bounds.upperBound)
    }

    /// Whether the state may be used at `now` without asking the origin.
    func isFresh(at now: Date, within bounds: ClosedRange<TimeInterval>) -> Bool {
        record.age(at: now) < lifetime(within: bounds)
    }
}
