// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherRedis

/// Removes what the service holds of a source: its original and every result made from it, in
/// memory, on disk and in Redis, on this node and, through Redis, on every node.
///
/// A purge first gives the source a new generation (``SourceFreshness/purge(_:)``), whose
/// version no earlier key has: from then on nothing made before is served, on any node, even
/// what a request under way stores late. It then removes what it finds: the originals of the
/// last version, the results each node noted in its ``ResultIndex`` and those noted in Redis.
/// The other nodes hear of it on a Redis channel, forget the state they kept in memory and
/// remove what they made.
final class SourcePurger: Sendable {
    private let freshness: SourceFreshness
    private let index: ResultIndex
    private let resultMemory: MemoryStorage.Backend<ServedImage>
    private let resultDisk: DiskStorage.Backend<ServedImage>
    private let processedMemory: MemoryStorage.Backend<KFCrossPlatformImage>
    private let originalsOnDisk: DiskStorage.Backend<Data>
    /// Every tier of originals, Redis's included.
    private let originalTiers: [any CacheTier<Data>]
    private let shared: Shared?
    private let metrics: ServiceMetrics
    /// Told the source of each purge this node heard from another: tests wait for it.
    let heard = CallbackSlot<URL>()
    /// Names this node in the messages it sends, so that it does not act on its own.
    private let node = UUID().uuidString

    /// The Redis side: the keys of the results each node stored in Redis, and the channel.
    struct Shared: Sendable {
        /// One set per source of the Redis keys of its results.
        var results: RedisKeySet
        var broadcast: RedisBroadcast
        /// Where the results' Redis keys come from.
        var resultStorage: RedisStorage.Backend<ServedImage>
    }

    init(
        freshness: SourceFreshness, index: ResultIndex, resultMemory: MemoryStorage.Backend<ServedImage>,
        resultDisk: DiskStorage.Backend<ServedImage>, processedMemory: MemoryStorage.Backend<KFCrossPlatformImage>,
        originalsOnDisk: DiskStorage.Backend<Data>, originalTiers: [any CacheTier<Data>], shared: Shared?, metrics: ServiceMetrics
    ) {
        self.freshness = freshness
        self.index = index
        self.resultMemory = resultMemory
        self.resultDisk = resultDisk
        self.processedMemory = processedMemory
        self.originalsOnDisk = originalsOnDisk
        self.originalTiers = originalTiers
        self.shared = shared
        self.metrics = metrics
    }

    /// Starts hearing the other nodes' purges.
    func startListening() {
        shared?.broadcast.start { [weak self] message in
            guard let self, let (node, source) = Self.parse(message), node != self.node else { return }
            // Off the connection's event loop: forgetting touches the disk.
            Task { self.purgeHere(source) }
        }
    }

    /// Returns once this node hears the other nodes' purges (at once without Redis).
    func waitUntilListening() async {
        await shared?.broadcast.waitUntilSubscribed()
    }

    /// Stops hearing the other nodes.
    func shutdown() {
        shared?.broadcast.shutdown()
    }

    /// Notes that the result `key` (and the processed image `processedKey`) was made from
    /// `source` and kept here, and in Redis when `inRedis`.
    func noteMade(_ key: String, processedKey: String?, of source: URL, inRedis: Bool, expiration: StorageExpiration) async {
        index.insert(ResultIndex.Entry(result: key, processed: processedKey), of: source)
        guard inRedis, let shared else { return }
        let redisKey = shared.resultStorage.redisKey(resultDisk.cacheFileName(forKey: key))
        try? await shared.results.insert(redisKey, into: source.absoluteString, expiration: expiration)
    }

    /// What a purge removed.
    struct Outcome: Sendable {
        /// Results removed from this node's memory and disk, and from Redis.
        var results: Int
        /// Whether the other nodes were told (`false` without Redis).
        var toldOtherNodes: Bool
    }

    /// Purges `source` everywhere.
    /// - Throws: ``ServiceError`` `503` when Redis could not be told: the purge holds on this
    ///   node only.
    func purge(_ source: URL) async throws(ServiceError) -> Outcome {
        metrics.recordPurge(.request)
        let previous = source.scheme == LocalRoot.scheme ? nil : await freshness.purge(source)
        for key in Self.originalKeys(of: source, lastState: previous) {
            for tier in originalTiers { try? await tier.remove(key) }
        }
        var removed = removeMadeHere(source)
        guard let shared else { return Outcome(results: removed, toldOtherNodes: false) }
        do {
            removed += try await shared.results.removeAll(in: source.absoluteString)
            try await shared.broadcast.publish("\(node) \(source.absoluteString)")
        } catch {
            throw ServiceError(
                .serviceUnavailable,
                "\(ServiceError.printable(String(source.absoluteString.prefix(300)))) was purged on this node only: \(error.description)")
        }
        return Outcome(results: removed, toldOtherNodes: true)
    }

    /// Another node's purge of `source`: forgets its state here (the next request reads the
    /// new one from Redis) and removes its original and what was made from it here.
    private func purgeHere(_ source: URL) {
        metrics.recordPurge(.broadcast)
        let forgotten = source.scheme == LocalRoot.scheme ? nil : freshness.forgetHere(source)
        for key in Self.originalKeys(of: source, lastState: forgotten) { try? originalsOnDisk.remove(forKey: key) }
        removeMadeHere(source)
        heard.call(source)
    }

    /// The keys a purged source's originals may be under: its first-seen content's (its address)
    /// and that of the version of `lastState`, its state before the purge.
    private static func originalKeys(of source: URL, lastState: SourceState?) -> Set<String> {
        let version = lastState.flatMap { $0.version.isEmpty ? nil : $0.version }
        return [ImageService.originalKey(of: source, version: nil), ImageService.originalKey(of: source, version: version)]
    }

    /// Removes the results and processed images this node noted for `source`; returns how many.
    @discardableResult
    private func removeMadeHere(_ source: URL) -> Int {
        let entries = index.removeAll(of: source)
        for entry in entries {
            resultMemory.remove(forKey: entry.result)
            try? resultDisk.remove(forKey: entry.result)
            if let processed = entry.processed { processedMemory.remove(forKey: processed) }
        }
        return entries.count
    }

    /// The node and source a message names: `{node} {source}`.
    private static func parse(_ message: String) -> (String, URL)? {
        guard let space = message.firstIndex(of: " "), let source = URL(string: String(message[message.index(after: space)...])) else {
            return nil
        }
        return (String(message[..<space]), source)
    }
}
