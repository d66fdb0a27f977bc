// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The typed retrieval pipeline: tiers in order, the fetch, the processing, which step
/// answered, and failures as values.
@Suite(.timeLimit(.minutes(5))) struct RetrievalPipelineTests {
    /// An original tier in a dictionary that records its calls, and can be made to fail.
    final class RecordingTier: CacheTier {
        let name: String
        let values = Locked<[String: Data]>([:])
        let calls = Locked<[String]>([])
        let failing: Bool

        init(_ name: String, failing: Bool = false) {
            self.name = name
            self.failing = failing
        }

        struct Unreachable: Error {}

        func get(_ key: String) async throws -> Data? {
            calls.withLock { $0.append("get") }
            if failing { throw Unreachable() }
            return values.withLock { $0[key] }
        }

        func put(_ value: Data, forKey key: String, expiration: StorageExpiration?) async throws {
            calls.withLock { $0.append("put") }
            if failing { throw Unreachable() }
            values.withLock { $0[key] = value }
        }

        func remove(_ key: String) async throws {
            values.withLock { $0[key] = nil }
        }
    }

    let resize = ResizingImageProcessor(referenceSize: CGSize(width: 20, height: 10))

    func memory() -> MemoryStorage.Backend<KFCrossPlatformImage> {
        MemoryStorage.Backend(config: MemoryStorage.Config(totalCostLimit: 50 << 20))
    }

    @Test func aMissEverywhereFetchesOnceAndStoresInEveryTier() async throws {
        try await withTestHTTPServer { origin in
            let url = origin.url("/image/photo_baseline_420.jpg")
            let processed = memory()
            let (disk, shared) = (RecordingTier("disk"), RecordingTier("shared"))
            let pipeline = RetrievalPipeline(
                processedTiers: [processed], originalTiers: [disk, shared], downloader: ImageDownloader(name: "pipeline-miss"))
            let request = RetrievalRequest(source: .network(url), processor: resize)

            let first = try await pipeline.retrieve(request)
            #expect(first.answeredBy == .source)
            #expect(first.image.size == CGSize(width: 20, height: 10))
            #expect(first.originalData == (try Fixtures.data("photo_baseline_420.jpg")))
            #expect(first.timings.fetch != nil && first.timings.processing != nil)
            #expect(first.networkMetrics?.httpStatusCode == 200)
            for tier in [disk, shared] {
                #expect(tier.values.withLock { $0[url.absoluteString] } == first.originalData, "\(tier.name) keeps the original")
            }
            #expect(processed.isCached(forKey: request.processedKey))

            let second = try await pipeline.retrieve(request)
            #expect(second.answeredBy == .processedTier("memory"))
            #expect(second.originalData == nil && second.timings.fetch == nil && second.timings.processing == nil)
            #expect(origin.requests("/image/photo_baseline_420.jpg") == 1)
            #expect(disk.calls.withLock { $0 } == ["get", "put"], "a processed hit asks no original tier")
        }
    }

    @Test func anOriginalInALowerTierIsProcessedAndCopiedUpward() async throws {
        let data = try Fixtures.data("photo_baseline_420.jpg")
        let (disk, shared) = (RecordingTier("disk"), RecordingTier("shared"))
        shared.values.withLock { $0["http://127.0.0.1:1/a.jpg"] = data }
        let processed = memory()
        // Nothing listens on loopback port 1: a fetch would fail, so the answer can only come from the tier.
        let pipeline = RetrievalPipeline(processedTiers: [processed], originalTiers: [disk, shared])
        let request = RetrievalRequest(source: .network(URL(string: "http://127.0.0.1:1/a.jpg")!), processor: resize)
        let response = try await pipeline.retrieve(request)
        #expect(response.answeredBy == .originalTier("shared"))
        #expect(response.answeredBy.description == "original from shared")
        #expect(response.image.size == CGSize(width: 20, height: 10))
        #expect(response.timings.fetch == nil && response.timings.processing != nil)
        #expect(disk.values.withLock { $0[request.originalKey] } == data, "the tier above keeps it from now on")
        #expect(shared.calls.withLock { $0 } == ["get"], "the tier it came from is not written again")
        #expect(processed.isCached(forKey: request.processedKey))
    }

    @Test func aFailingTierAndBytesThatDoNotDecodeAreMisses() async throws {
        try await withTestHTTPServer { origin in
            let url = origin.url("/image/photo.png")
            let (broken, garbled) = (RecordingTier("broken", failing: true), RecordingTier("garbled"))
            garbled.values.withLock { $0[url.absoluteString] = Data("not an image".utf8) }
            let pipeline = RetrievalPipeline(originalTiers: [broken, garbled], downloader: ImageDownloader(name: "pipeline-faults"))
            let response = try await pipeline.retrieve(RetrievalRequest(source: .network(url)))
            #expect(response.answeredBy == .source)
            #expect(garbled.values.withLock { $0[url.absoluteString] } == response.originalData, "replaced by the fetched original")
            #expect(broken.calls.withLock { $0 } == ["get", "put"], "a tier's failure fails nothing")
        }
    }

    @Test func aProviderSourceIsLoadedAndProcessed() async throws {
        let data = try Fixtures.data("photo_baseline_420.jpg")
        let tier = RecordingTier("disk")
        let pipeline = RetrievalPipeline(originalTiers: [tier])
        let request = RetrievalRequest(source: .provider(RawImageDataProvider(data: data, cacheKey: "raw")), processor: resize)
        let response = try await pipeline.retrieve(request)
        #expect(response.answeredBy == .source)
        #expect(response.image.size == CGSize(width: 20, height: 10))
        #expect(response.networkMetrics == nil && response.timings.fetch != nil)
        #expect(tier.values.withLock { $0["raw"] } == data)
    }

    @Test func limitsAndUndecodableSourcesAreTypedFailures() async throws {
        try await withTestHTTPServer { origin in
            let pipeline = RetrievalPipeline(downloader: ImageDownloader(name: "pipeline-limits"))
            let tooBig = RetrievalRequest(
                source: .network(origin.url("/image/photo_baseline_420.jpg")), limits: RetrievalLimits(maxPixelCount: 1000))
            let overLimit = await #expect(throws: KingfisherError.self) { try await pipeline.retrieve(tooBig) }
            guard case .tooManyPixels? = overLimit?.decodingFailure?.reason else {
                Issue.record("not a pixel limit: \(String(describing: overLimit))")
                return
            }
            let html = await #expect(throws: KingfisherError.self) {
                try await pipeline.retrieve(RetrievalRequest(source: .network(origin.url("/html/page"))))
            }
            #expect(html?.decodingFailure != nil, "\(String(describing: html))")
        }
    }

    /// A policy that refuses every redirect, counting how often it was asked.
    struct RefuseEverything: ImageDownloadRedirectPolicy {
        let asked = Locked(0)

        func refusal(ofRedirectTo target: URL, from response: HTTPURLResponse) async -> String? {
            asked.withLock { $0 += 1 }
            return "\(target.path) is not an allowed source"
        }
    }

    @Test func aRefusedRedirectFailsWithThePolicysReason() async throws {
        try await withTestHTTPServer { origin in
            let pipeline = RetrievalPipeline(downloader: ImageDownloader(name: "pipeline-redirect"))
            let policy = RefuseEverything()
            let request = RetrievalRequest(source: .network(origin.url("/redirect/1/photo.png")), redirectHandler: policy)
            let error = await #expect(throws: KingfisherError.self) { try await pipeline.retrieve(request) }
            let failure = try #require(error?.downloadFailure)
            #expect(
                failure.reason
                    == .redirectRefused(target: origin.url("/image/photo.png"), because: "/image/photo.png is not an allowed source"))
            #expect(failure.code == .redirectToNonExistentLocation)
            #expect(failure.description.hasPrefix("refused to follow a redirect to http://127.0.0.1:"))
            #expect(policy.asked.withLock { $0 } == 1)
            #expect(origin.requests("/image/photo.png") == 0)
        }
    }

    @Test func aCancelledRetrievalEndsAsCancelled() async throws {
        try await withTestHTTPServer { origin in
            let pipeline = RetrievalPipeline(downloader: ImageDownloader(name: "pipeline-cancel"))
            let retrieval = Task { try await pipeline.retrieve(RetrievalRequest(source: .network(origin.url("/hang")))) }
            try await origin.wait(until: { $0.requests["/hang"] == 1 })
            retrieval.cancel()
            let error = await #expect(throws: KingfisherError.self) { try await retrieval.value }
            #expect(error?.isCancellation == true, "\(String(describing: error))")
        }
    }

    @Test func anOriginalOverTheLimitsIsRefusedNotFetchedAgain() async throws {
        let tier = RecordingTier("disk")
        tier.values.withLock { $0["http://127.0.0.1:1/big.jpg"] = try? Fixtures.data("photo_baseline_420.jpg") }
        // Nothing listens on loopback port 1: counting it as a miss would fail with a network error instead.
        let pipeline = RetrievalPipeline(originalTiers: [tier])
        let request = RetrievalRequest(
            source: .network(URL(string: "http://127.0.0.1:1/big.jpg")!), limits: RetrievalLimits(maxPixelCount: 1000))
        let error = await #expect(throws: KingfisherError.self) { try await pipeline.retrieve(request) }
        guard case .tooManyPixels? = error?.imageCodingError else {
            Issue.record("not the limit: \(String(describing: error))")
            return
        }
    }
}
