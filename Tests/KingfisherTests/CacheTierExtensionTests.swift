// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherTestKit
import Testing

/// A cache tier written against the public API alone, as an application would: a dictionary
/// standing in for a key-value service. It goes between the disk and the network with one call.
@Suite(.timeLimit(.minutes(5))) struct CacheTierExtensionTests {
    /// The toy tier: values in a dictionary, every call counted.
    final class DictionaryTier: CacheTier {
        let name = "dictionary"
        let values = Locked<[String: Data]>([:])
        let calls = Locked<[String]>([])
        /// Yields each removed key.
        let removed = AsyncStream<String>.makeStream()

        func get(_ key: String) async throws -> Data? {
            calls.withLock { $0.append("get") }
            return values.withLock { $0[key] }
        }

        func put(_ value: Data, forKey key: String, expiration: StorageExpiration?) async throws {
            calls.withLock { $0.append("put") }
            values.withLock { $0[key] = value }
        }

        func remove(_ key: String) async throws {
            calls.withLock { $0.append("remove") }
            values.withLock { $0[key] = nil }
            removed.continuation.yield(key)
        }
    }

    @Test func aTierAddedBelowTheDiskTakesWritesAndAnswersMisses() async throws {
        try await withManagerSetup(name: "toy-tier") { setup in
            let tier = DictionaryTier()
            setup.cache.addTier(tier)
            #expect(setup.cache.tiersBelowDisk.map(\.name) == ["dictionary"])
            let url = setup.server.url("/image/photo.png")

            let loaded = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            #expect(loaded.cacheType == .none)
            #expect(tier.values.withLock { $0.count } == 1, "the disk's write went to the tier too")

            // Gone from memory and disk: the tier answers, and the disk keeps the value again.
            setup.cache.clearMemoryCache()
            await setup.cache.clearDiskCache()
            let fromTier = try await setup.manager.retrieveImage(with: url)
            #expect(fromTier.cacheType == .disk && fromTier.image.pixelWidth == 190)
            #expect(setup.server.requests("/image/photo.png") == 1, "no second download")
            #expect(setup.cache.diskStorage.isCached(forKey: url.cacheKey))

            // Removing the image removes it from the tier, so it cannot come back from there.
            try await setup.cache.removeImage(forKey: url.cacheKey)
            var removals = tier.removed.stream.makeAsyncIterator()
            #expect(await removals.next() == setup.cache.hash(forKey: url.cacheKey))
            #expect(tier.values.withLock { $0.isEmpty })
        }
    }
}
