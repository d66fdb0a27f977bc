// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherRedis

/// The state of every network source the service serves, and its renewal: a state is used
/// while fresh (the origin's `Cache-Control`/`Expires`, bounded by `--min-source-ttl` and
/// `--max-source-ttl`); once stale, the next request asks the origin with a conditional
/// request, once however many requests wait for it. A `304` renews the state and keeps
/// everything made from the source; a new body is a new version, whose original is stored for
/// the retrieval that follows. An origin that cannot be reached leaves a stale state in use
/// unless its response said `must-revalidate` (an answer such as `404` is passed on).
///
/// States are kept in memory, on disk beside the originals (a restart keeps them) and, with
/// `--redis`, in Redis, where every node finds what another learnt. A source first seen has
/// version "" (its original and results keyed by its address, as the fetch shared by the nodes
/// stores them) and the fields its fetch brings; a state that was never fetched here (its
/// original came from another node or a cache) has none, and is asked about, unconditionally,
/// once the minimum TTL has passed.
package final class SourceFreshness: Sendable {
    /// How long a state is used without asking, whatever the origin says: `--min-source-ttl`
    /// … `--max-source-ttl`.
    let bounds: ClosedRange<TimeInterval>
    private let memory = Locked<[String: SourceState]>([:])
    private let disk: DiskStorage.Backend<Data>
    private let shared: RedisStorage.Backend<Data>?
    private let flights = SingleFlight<String, SourceState>()
    private let clock: Locked<Clock>
    /// Whether a failure to ask the origin is an outage, in which a stale state stands in.
    private let isOutage: @Sendable (any Error) -> Bool
    /// Told how each asking ended.
    private let revalidated: @Sendable (ServiceMetrics.Revalidation) -> Void

    /// The states kept in memory at most; past it, the memory starts again from disk.
    static let memoryLimit = 10_000

    /// Asks the origin about a source, conditionally with the validators given.
    typealias Ask = @Sendable (_ validators: HTTPValidators?) async throws -> SourceRevalidation

    init(
        bounds: ClosedRange<TimeInterval>, disk: DiskStorage.Backend<Data>, shared: RedisStorage.Backend<Data>?,
        isOutage: @escaping @Sendable (any Error) -> Bool, revalidated: @escaping @Sendable (ServiceMetrics.Revalidation) -> Void
    ) {
        self.bounds = bounds
        self.isOutage = isOutage
        self.revalidated = revalidated
        self.disk = disk
        self.shared = shared
        clock = Locked(Clock { Date() })
    }

    /// Makes the service read the time from `clock` (tests move it on instead of waiting).
    package func setClock(_ clock: @escaping @Sendable () -> Date) {
        self.clock.withLock { $0 = Clock(clock) }
    }

    private var now: Date { clock.withLock { $0 }.now() }

    /// The time source in a class: a function kept in `Locked` itself is wrapped in two more
    /// reabstraction thunks at every access (the `inout` goes through a generic parameter and
    /// back), so each call got slower than the last.
    private final class Clock: Sendable {
        let now: @Sendable () -> Date

        init(_ now: @escaping @Sendable () -> Date) {
            self.now = now
        }
    }

    /// The source's state kept in memory, if it is fresh: most requests need nothing more.
    func freshState(of source: URL) -> SourceState? {
        guard let known = memory.withLock({ $0[Self.key(of: source)] }), known.isFresh(at: now, within: bounds) else { return nil }
        return known
    }

    /// The source's state as of now: the one kept while it is fresh; a first sight (version
    /// empty, nothing asked: the retrieval's fetch teaches its fields through ``learn``); else
    /// what `ask` finds, conditionally when there are validators, with a new body handed to
    /// `keep` before the state is used.
    func state(
        of source: URL, ask: @escaping Ask, keep: @escaping @Sendable (Data, SourceState) async -> Void
    ) async throws -> SourceState {
        if let known = freshState(of: source) { return known }
        let key = Self.key(of: source)
        return try await flights.value(for: key) { [self] in
            guard let known = await stored(forKey: key) else {
                let first = SourceState.firstSeen(at: now)
                await store(first, forKey: key)
                return first
            }
            if known.isFresh(at: now, within: bounds) {
                remember(known, forKey: key)
                return known
            }
            let requestTime = now
            let answer: SourceRevalidation
            do {
                answer = try await ask(known.record.validators)
            } catch {
                // RFC 9111 §4.2.4: a stale response may stand in while the origin cannot answer
                // (not when it answers that the source is gone).
                guard known.record.mayServeStale, isOutage(error), !Task.isCancelled else {
                    if !Task.isCancelled { revalidated(.failed) }
                    throw error
                }
                revalidated(.staleServed)
                // Asked again once the minimum TTL has passed, not by each request until then.
                let held = known.held(until: now.addingTimeInterval(bounds.lowerBound))
                await store(held, forKey: key)
                return held
            }
            let state: SourceState
            switch answer {
            case .notModified(let response):
                revalidated(.notModified)
                state = known.renewed(by: response, requestTime: requestTime, responseTime: now)
            case .changed(let body, let response):
                revalidated(.changed)
                state = SourceState(
                    response: response, body: body, requestTime: requestTime, responseTime: now, generation: known.generation)
                await keep(body, state)
            }
            await store(state, forKey: key)
            return state
        }.0
    }

    /// What a retrieval's fetch of `source` (made at `requestTime`, for the content of
    /// `version`) answered: its caching fields become the state's, when that version is still
    /// the source's.
    func learn(_ response: TransportResponse, requestTime: Date, of source: URL, version: String) {
        let key = Self.key(of: source)
        guard let known = memory.withLock({ $0[key] }), known.version == version else { return }
        guard let data = keepHere(known.learning(response, requestTime: requestTime, responseTime: now), forKey: key), let shared else {
            return
        }
        Task { _ = try? await shared.store(value: data, forKey: key) }
    }

    /// Starts a new generation of the source's state everywhere it is kept (``SourceState/purged(after:at:)``):
    /// nothing made from it before is found again.
    /// - Returns: The state it had here or in Redis, if any.
    func purge(_ source: URL) async -> SourceState? {
        let key = Self.key(of: source)
        let previous = memory.withLock { $0[key] }
        let known = await stored(forKey: key)
        let latest = [previous, known].compactMap { $0 }.max { $0.record.responseTime < $1.record.responseTime }
        await store(.purged(after: latest, at: now), forKey: key)
        return latest
    }

    /// Forgets the state this node keeps of the source (memory, disk), after another node
    /// purged it: the next request reads the new one from Redis.
    /// - Returns: The state forgotten, if there was one.
    func forgetHere(_ source: URL) -> SourceState? {
        let key = Self.key(of: source)
        let remembered = memory.withLock { $0.removeValue(forKey: key) }
        let onDisk = (try? disk.value(forKey: key)).flatMap { try? JSONDecoder().decode(SourceState.self, from: $0) }
        try? disk.remove(forKey: key)
        return remembered ?? onDisk
    }

    /// Where a source's state is kept: beside its original, under a name no version takes.
    private static func key(of source: URL) -> String { "\(source.absoluteString)#state" }

    /// The state kept on disk, else in Redis.
    private func stored(forKey key: String) async -> SourceState? {
        let decoder = JSONDecoder()
        var candidates: [SourceState] = []
        if let data = try? disk.value(forKey: key), let state = try? decoder.decode(SourceState.self, from: data) {
            candidates.append(state)
        }
        if let shared, let data = try? await shared.value(forKey: key), let state = try? decoder.decode(SourceState.self, from: data) {
            candidates.append(state)
        }
        // Another node may have asked the origin since this one did: the latest answer wins.
        return candidates.max { $0.record.responseTime < $1.record.responseTime }
    }

    /// Keeps `state` in memory, on disk and in Redis.
    private func store(_ state: SourceState, forKey key: String) async {
        guard let data = keepHere(state, forKey: key) else { return }
        _ = try? await shared?.store(value: data, forKey: key)
    }

    /// Keeps `state` in memory and on disk, and returns its encoding for Redis.
    private func keepHere(_ state: SourceState, forKey key: String) -> Data? {
        remember(state, forKey: key)
        guard let data = try? JSONEncoder().encode(state) else { return nil }
        try? disk.store(value: data, forKey: key)
        return data
    }

    private func remember(_ state: SourceState, forKey key: String) {
        memory.withLock { states in
            if states.count >= Self.memoryLimit, states[key] == nil { states.removeAll(keepingCapacity: true) }
            states[key] = state
        }
    }
}
