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
    /// else its bytes (and the generation, after a purge), so that the same content gives the
    /// same version on every node.
    var version: String
    /// How many times the source was purged: no version after a purge is one from before it,
    /// so nothing made before is found again, even what a request under way stored late.
    var generation: Int
    /// Until when the state is used without asking, though stale: the origin could not be
    /// reached, and is asked again once the minimum TTL has passed, not by every request.
    var heldUntil: Date?

    /// The state of a source first seen at `now`, before anything is known of it: stale once
    /// the minimum TTL has passed, unless a fetch teaches its response's fields first.
    static func firstSeen(at now: Date) -> SourceState {
        SourceState(record: HTTPCacheRecord(fields: [:], responseTime: now), version: "", generation: 0)
    }

    /// The state of a source purged at `now` (its state was `previous`, if known): a first
    /// sight of a new generation, with a version of its own.
    static func purged(after previous: SourceState?, at now: Date) -> SourceState {
        let generation = (previous?.generation ?? 0) + 1
        return SourceState(record: HTTPCacheRecord(fields: [:], responseTime: now), version: "purge\(generation)", generation: generation)
    }

    private init(record: HTTPCacheRecord, version: String, generation: Int) {
        self.record = record
        self.version = version
        self.generation = generation
    }

    /// The state of a response that brought the source's bytes, in the source's `generation`.
    init(response: TransportResponse, body: Data, requestTime: Date, responseTime: Date, generation: Int) {
        record = HTTPCacheRecord(response: response, requestTime: requestTime, responseTime: responseTime)
        let validators = record.validators
        var named = validators.map { Data("\($0.entityTag ?? "")|\($0.lastModified ?? "")".utf8) } ?? body
        // Generation 0 names content as it did before purges existed: stored versions stay.
        if generation > 0 { named = Data("\(generation)|".utf8) + named }
        version = Base64URL.encode(SHA256.hash(data: named).prefix(9))
        self.generation = generation
    }

    private enum CodingKeys: String, CodingKey {
        case record, version, generation, heldUntil
    }

    /// Decodes a state; one stored before purges has generation 0.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        record = try container.decode(HTTPCacheRecord.self, forKey: .record)
        version = try container.decode(String.self, forKey: .version)
        generation = try container.decodeIfPresent(Int.self, forKey: .generation) ?? 0
        heldUntil = try container.decodeIfPresent(Date.self, forKey: .heldUntil)
    }

    /// The state of the same content after a response that brought it (a fetch of the
    /// retrieval): its fields replace what was known.
    func learning(_ response: TransportResponse, requestTime: Date, responseTime: Date) -> SourceState {
        SourceState(
            record: HTTPCacheRecord(response: response, requestTime: requestTime, responseTime: responseTime), version: version,
            generation: generation)
    }

    /// The state after a `304` for it: the same content, renewed.
    func renewed(by response: TransportResponse, requestTime: Date, responseTime: Date) -> SourceState {
        var state = self
        state.record = record.revalidated(by: response, requestTime: requestTime, responseTime: responseTime)
        state.heldUntil = nil
        return state
    }

    /// The stale state, used until `until` without asking the origin, which could not be reached.
    func held(until: Date) -> SourceState {
        var state = self
        state.heldUntil = until
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
        record.age(at: now) < lifetime(within: bounds) || heldUntil.map { now < $0 } == true
    }
}
