// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

/// What a ``RetrievalRequest`` may switch off: searching the tiers, fetching the source,
/// storing the original, waiting for the stores; and the download's progress.
@Suite(.timeLimit(.minutes(5))) struct RetrievalRequestOptionsTests {
    typealias RecordingTier = RetrievalPipelineTests.RecordingTier

    let resize = ResizingImageProcessor(referenceSize: CGSize(width: 20, height: 10))

    @Test func withoutSearchingTheTiersTheSourceIsFetchedAndStoredAgain() async throws {
        try await withTestHTTPServer { origin in
            let url = origin.url("/image/photo_baseline_420.jpg")
            let tier = RecordingTier("disk")
            tier.values.withLock { $0[url.absoluteString] = Data("stale".utf8) }
            let pipeline = RetrievalPipeline(originalTiers: [tier], downloader: ImageDownloader(name: "options-refresh"))
            var request = RetrievalRequest(source: .network(url), processor: resize)
            request.searchesTiers = false
            let response = try await pipeline.retrieve(request)
            #expect(response.answeredBy == .source)
            #expect(tier.calls.withLock { $0 } == ["put"], "no tier is asked")
            #expect(tier.values.withLock { $0[url.absoluteString] } == (try Fixtures.data("photo_baseline_420.jpg")))
        }
    }

    @Test func withoutFetchingAMissEverywhereSaysTheImageIsNotCached() async throws {
        let tier = RecordingTier("disk")
        // Nothing listens on loopback port 1: a fetch would fail with a network error instead.
        let pipeline = RetrievalPipeline(originalTiers: [tier])
        var request = RetrievalRequest(source: .network(URL(string: "http://127.0.0.1:1/a.jpg")!), processor: resize)
        request.fetchesSource = false
        let error = await #expect(throws: KingfisherError.self) { try await pipeline.retrieve(request) }
        guard case .cacheError(reason: .imageNotExisting(let key))? = error else {
            Issue.record("not a cache miss: \(String(describing: error))")
            return
        }
        #expect(key == "http://127.0.0.1:1/a.jpg")
        #expect(tier.calls.withLock { $0 } == ["get"])

        tier.values.withLock { $0[key] = try? Fixtures.data("photo_baseline_420.jpg") }
        #expect(try await pipeline.retrieve(request).answeredBy == .originalTier("disk"), "a tier may still answer")
    }

    @Test func withoutStoringTheOriginalOnlyTheProcessedImageIsKept() async throws {
        let data = try Fixtures.data("photo_baseline_420.jpg")
        let tier = RecordingTier("disk")
        let processed = MemoryStorage.Backend<KFCrossPlatformImage>(config: MemoryStorage.Config(totalCostLimit: 50 << 20))
        let pipeline = RetrievalPipeline(processedTiers: [processed], originalTiers: [tier])
        var request = RetrievalRequest(source: .provider(RawImageDataProvider(data: data, cacheKey: "raw")), processor: resize)
        request.storesOriginal = false
        let response = try await pipeline.retrieve(request)
        #expect(response.answeredBy == .source)
        #expect(tier.calls.withLock { $0 } == ["get"], "the original is not stored")
        #expect(processed.isCached(forKey: request.processedKey))
    }

    /// A tier whose writes wait until the test lets them through, and say when they ended.
    final class GatedTier: CacheTier {
        var name: String { "gated" }
        let values = Locked<[String: Data]>([:])
        let (opened, open) = AsyncStream<Void>.makeStream()
        let (stored, store) = AsyncStream<Void>.makeStream()

        func get(_ key: String) async throws -> Data? { values.withLock { $0[key] } }

        func put(_ value: Data, forKey key: String, expiration: StorageExpiration?) async throws {
            for await _ in opened { break }
            values.withLock { $0[key] = value }
            store.yield()
        }

        func remove(_ key: String) async throws { values.withLock { $0[key] = nil } }
    }

    @Test func withoutWaitingForTheStoresTheAnswerComesFirst() async throws {
        let data = try Fixtures.data("photo_baseline_420.jpg")
        let tier = GatedTier()
        let pipeline = RetrievalPipeline(originalTiers: [tier])
        var request = RetrievalRequest(source: .provider(RawImageDataProvider(data: data, cacheKey: "raw")), processor: resize)
        request.waitsForStores = false
        let response = try await pipeline.retrieve(request)
        #expect(response.answeredBy == .source)
        #expect(tier.values.withLock { $0["raw"] } == nil, "answered while the store still waits")
        tier.open.yield()
        for await _ in tier.stored { break }
        #expect(tier.values.withLock { $0["raw"] } == data, "stored after the answer")
    }

    @Test func theDownloadsProgressIsReported() async throws {
        try await withTestHTTPServer { origin in
            let received = Locked<[Int64]>([])
            var request = RetrievalRequest(source: .network(origin.url("/image/photo_baseline_420.jpg")))
            request.progressBlock = { done, _ in received.withLock { $0.append(done) } }
            _ = try await RetrievalPipeline(downloader: ImageDownloader(name: "options-progress")).retrieve(request)
            let size = Int64(try Fixtures.data("photo_baseline_420.jpg").count)
            #expect(received.withLock { $0.last } == size)
        }
    }
}
