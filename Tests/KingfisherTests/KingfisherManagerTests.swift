// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// KingfisherManager's flow against the loopback server, counting requests.
@Suite(.timeLimit(.minutes(10))) struct KingfisherManagerTests {
    func withSetup(_ body: (ManagerSetup) async throws -> Void) async throws {
        try await withManagerSetup(name: "manager", body)
    }

    let resize = ResizingImageProcessor(referenceSize: CGSize(width: 20, height: 20), mode: .aspectFit)

    // MARK: Network and caches

    @Test func aFirstRetrievalDownloads() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            let first = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            #expect(first.cacheType == .none && first.metrics != nil && first.image.pixelWidth == 190)
            #expect(first.data() == (try Fixtures.data("photo.png")))
            #expect(setup.server.requests("/image/photo.png") == 1)
        }
    }

    @Test func aSecondRetrievalHitsTheMemoryCache() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            _ = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            let second = try await setup.manager.retrieveImage(with: url)
            #expect(second.cacheType == .memory)
            #expect(setup.server.requests("/image/photo.png") == 1)
        }
    }

    @Test func aDiskHitIsPromotedToMemory() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            _ = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            setup.cache.clearMemoryCache()
            let third = try await setup.manager.retrieveImage(with: url)
            #expect(third.cacheType == .disk && third.image.pixelWidth == 190)
            #expect(setup.cache.imageCachedType(forKey: url.cacheKey) == .memory)
            #expect(setup.server.requests("/image/photo.png") == 1)
        }
    }

    @Test func aProcessedImageIsCachedUnderItsProcessorsKey() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            let resized = try await setup.manager.retrieveImage(with: url, options: [.processor(resize), .waitForCache])
            #expect(resized.image.pixelWidth == 20)
            #expect(setup.cache.imageCachedType(forKey: url.cacheKey, processorIdentifier: resize.identifier).cached)
            #expect(!setup.cache.isCached(forKey: url.cacheKey), "not under the unprocessed key")
        }
    }

    @Test func cacheOriginalImageAlsoStoresTheOriginal() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            _ = try await setup.manager.retrieveImage(with: url, options: [.processor(resize), .cacheOriginalImage, .waitForCache])
            #expect(setup.cache.isCached(forKey: url.cacheKey), "the original under the unprocessed key")
        }
    }

    @Test func anotherProcessorIsAppliedToTheCachedOriginalWithoutTheNetwork() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            _ = try await setup.manager.retrieveImage(with: url, options: [.processor(resize), .cacheOriginalImage, .waitForCache])
            let blur = BlurImageProcessor(blurRadius: 4)
            setup.cache.clearMemoryCache()
            let blurred = try await setup.manager.retrieveImage(with: url, options: [.processor(blur), .waitForCache])
            #expect(blurred.cacheType == .none && blurred.image.pixelWidth == 190)
            #expect(setup.server.requests("/image/photo.png") == 1, "processed from the cached original")
            #expect(setup.cache.imageCachedType(forKey: url.cacheKey, processorIdentifier: blur.identifier).cached)
        }
    }

    @Test func aSerializerKeepingOriginalDataStillHandsBackProcessedImages() async throws {
        try await withSetup { setup in
            var serializer = DefaultCacheSerializer()
            serializer.preferCacheOriginalData = true
            let url = setup.server.url("/image/photo.png")
            let options: KingfisherOptionsInfo = [.processor(resize), .cacheSerializer(serializer), .waitForCache]
            #expect(try await setup.manager.retrieveImage(with: url, options: options).image.pixelWidth == 20)
            setup.cache.clearMemoryCache()
            let fromDisk = try await setup.manager.retrieveImage(with: url, options: options)
            #expect(fromDisk.cacheType == .disk && fromDisk.image.pixelWidth == 20, "processed again from the original bytes")
            let fromMemory = try await setup.manager.retrieveImage(with: url, options: options)
            #expect(fromMemory.cacheType == .memory && fromMemory.image.pixelWidth == 20)
            #expect(setup.server.requests("/image/photo.png") == 1)
        }
    }

    // MARK: Options

    @Test func onlyFromCacheFailsOnAMissWithoutTheNetwork() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.gif")
            await #expect {
                try await setup.manager.retrieveImage(with: url, options: [.onlyFromCache])
            } throws: { error in
                guard case .cacheError(reason: .imageNotExisting(let key))? = error as? KingfisherError else { return false }
                return key == url.cacheKey
            }
            #expect(setup.server.requests("/image/photo.gif") == 0)
        }
    }

    @Test func forceRefreshDownloadsACachedImageAgain() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.gif")
            _ = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            let refreshed = try await setup.manager.retrieveImage(with: url, options: [.forceRefresh])
            #expect(refreshed.cacheType == .none)
            #expect(setup.server.requests("/image/photo.gif") == 2)
        }
    }

    @Test func fromMemoryCacheOrRefreshSkipsTheDisk() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.gif")
            _ = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            setup.cache.clearMemoryCache()
            let refreshed = try await setup.manager.retrieveImage(with: url, options: [.fromMemoryCacheOrRefresh])
            #expect(refreshed.cacheType == .none, "disk skipped")
            #expect(setup.server.requests("/image/photo.gif") == 2)
        }
    }

    @Test func fromMemoryCacheOrRefreshUsesAMemoryHit() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.gif")
            _ = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            let fromMemory = try await setup.manager.retrieveImage(with: url, options: [.fromMemoryCacheOrRefresh])
            #expect(fromMemory.cacheType == .memory)
            #expect(setup.server.requests("/image/photo.gif") == 1)
        }
    }

    @Test func cacheMemoryOnlyWritesNothingToDisk() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            _ = try await setup.manager.retrieveImage(with: url, options: [.cacheMemoryOnly, .waitForCache])
            #expect(setup.cache.imageCachedType(forKey: url.cacheKey) == .memory)
            setup.cache.clearMemoryCache()
            #expect(!setup.cache.isCached(forKey: url.cacheKey), "nothing on disk")
        }
    }

    @Test func anImageModifierChangesOnlyTheReturnedImage() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            let tiny = KingfisherImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
            let result = try await setup.manager.retrieveImage(
                with: url,
                options: [
                    .waitForCache, .imageModifier(AnyImageModifier { _ in tiny }),
                ])
            #expect(result.image === tiny)
            #expect(setup.cache.retrieveImageInMemoryCache(forKey: url.cacheKey)?.pixelWidth == 190, "the cached image is not modified")
        }
    }

    @Test func defaultOptionsApply() async throws {
        try await withSetup { setup in
            setup.manager.defaultOptions = [.processor(resize)]
            let result = try await setup.manager.retrieveImage(with: setup.server.url("/image/photo.png"))
            #expect(result.image.pixelWidth == 20, "the default processor applied")
        }
    }

    // MARK: The callback form

    @Test func theCallbackFormReturnsTheDownloadTask() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            let updated = Locked(0)
            let result: Result<RetrieveImageResult, KingfisherError> = await withCheckedContinuation { continuation in
                let task = setup.manager.retrieveImage(
                    with: url, options: [.callbackQueue(.untouch)],
                    downloadTaskUpdated: { _ in updated.withLock { $0 += 1 } }
                ) {
                    continuation.resume(returning: $0)
                }
                #expect(task != nil)
            }
            let image = try result.get().image
            #expect(image.pixelWidth == 190)
            #expect(updated.withLock { $0 } == 0, "the first task is the returned one; updates are for retries and alternatives")
        }
    }

    @Test func theCallbackFormReturnsNoTaskForACacheHit() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            _ = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            let hit = setup.manager.retrieveImage(with: url, options: [.callbackQueue(.untouch)], completionHandler: nil)
            #expect(hit == nil)
        }
    }

    // MARK: Retries and alternatives

    @Test func aFlakyServerIsRetriedUntilItAnswers() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/flaky/2/photo.png")
            let result = try await setup.manager.retrieveImage(
                with: url,
                options: [
                    .retryStrategy(DelayRetryStrategy(maxRetryCount: 3, retryInterval: .seconds(0)))
                ])
            #expect(result.image.pixelWidth == 190)
            #expect(setup.server.requests("/flaky/2/photo.png") == 3)
        }
    }

    @Test func retriesStopAtTheMaximumCount() async throws {
        try await withSetup { setup in
            let stubborn = setup.server.url("/flaky/5/photo.png")
            await #expect {
                try await setup.manager.retrieveImage(
                    with: stubborn,
                    options: [
                        .retryStrategy(DelayRetryStrategy(maxRetryCount: 2, retryInterval: .accumulated(0.01)))
                    ])
            } throws: { ($0 as? KingfisherError)?.isInvalidResponseStatusCode(503) == true }
            #expect(setup.server.requests("/flaky/5/photo.png") == 3, "the first try and two retries")
        }
    }

    @Test func permanentFailuresAreNotRetried() async throws {
        try await withSetup { setup in
            let html = setup.server.url("/html")
            await #expect {
                try await setup.manager.retrieveImage(
                    with: html,
                    options: [
                        .retryStrategy(DelayRetryStrategy(maxRetryCount: 3, retryInterval: .seconds(0)))
                    ])
            } throws: { error in
                (error as? KingfisherError)?.decodingFailure?.url == html
            }
            #expect(setup.server.requests("/html") == 1, "a body that is not an image is not fetched again")
        }
    }

    @Test func alternativeSourcesAreTriedInOrder() async throws {
        try await withSetup { setup in
            let broken = setup.server.url("/status/404")
            let alsoBroken = setup.server.url("/status/500")
            let good = setup.server.url("/image/photo.png")
            let result = try await setup.manager.retrieveImage(
                with: broken,
                options: [
                    .alternativeSources([.network(alsoBroken), .network(good)])
                ])
            #expect(result.source.url == good && result.originalSource.url == broken)
            #expect(setup.server.requests("/status/404") == 1 && setup.server.requests("/status/500") == 1)
        }
    }

    @Test func exhaustedAlternativesReportEveryFailure() async throws {
        try await withSetup { setup in
            let broken = setup.server.url("/status/404")
            let alsoBroken = setup.server.url("/status/500")
            let error = await kingfisherError {
                _ = try await setup.manager.retrieveImage(with: broken, options: [.alternativeSources([.network(alsoBroken)])])
            }
            guard case .imageSettingError(reason: .alternativeSourcesExhausted(let failures))? = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            #expect(failures.map { $0.source.url } == [broken, alsoBroken])
            #expect(failures.allSatisfy { $0.error.isInvalidResponseStatusCode })
        }
    }

    // MARK: Providers and files

    @Test func aRawDataProviderLoadsWithoutTheNetwork() async throws {
        try await withSetup { setup in
            let data = try Fixtures.data("photo.png")
            let raw = try await setup.manager.retrieveImage(with: .provider(RawImageDataProvider(data: data, cacheKey: "raw-photo")))
            #expect(raw.image.pixelWidth == 190 && raw.cacheType == .none)
            #expect(setup.server.totalRequests == 0)
        }
    }

    @Test func theColorProfileIsKeptWhenTheOptionsSaySo() async throws {
        try await withSetup { setup in
            let data = try Fixtures.data("color/displayp3.jpg")
            let converted = try await setup.manager.retrieveImage(
                with: .provider(RawImageDataProvider(data: data, cacheKey: "p3")),
                options: [.cacheMemoryOnly])
            #expect(converted.image.colorProfile == nil)
            let kept = try await setup.manager.retrieveImage(
                with: .provider(RawImageDataProvider(data: data, cacheKey: "p3-kept")),
                options: [.preserveColorProfile, .cacheMemoryOnly])
            #expect(kept.image.colorProfile?.name.contains("Display P3") == true)
            #expect(kept.image.pixels != converted.image.pixels)
        }
    }

    @Test func aProvidersImageIsCachedUnderItsKey() async throws {
        try await withSetup { setup in
            let data = try Fixtures.data("photo.png")
            _ = try await setup.manager.retrieveImage(with: .provider(RawImageDataProvider(data: data, cacheKey: "raw-photo")))
            // Another provider with the same key is not asked: its empty data would not decode.
            let again = try await setup.manager.retrieveImage(with: .provider(RawImageDataProvider(data: Data(), cacheKey: "raw-photo")))
            #expect(again.cacheType == .memory && again.image.pixelWidth == 190)
        }
    }

    @Test func aBase64ProviderLoads() async throws {
        try await withSetup { setup in
            let data = try Fixtures.data("photo.png")
            let base64 = Base64ImageDataProvider(base64String: "data:image/png;base64," + data.base64EncodedString(), cacheKey: "b64")
            #expect(try await setup.manager.retrieveImage(with: .provider(base64)).image.pixelHeight == 127)
            #expect(setup.server.totalRequests == 0)
        }
    }

    @Test func aBadBase64ProviderFailsWithADataProviderError() async throws {
        try await withSetup { setup in
            let bad = Base64ImageDataProvider(base64String: "%%%", cacheKey: "bad")
            await #expect {
                try await setup.manager.retrieveImage(with: .provider(bad))
            } throws: { error in
                guard case .imageSettingError(reason: .dataProviderError)? = error as? KingfisherError else { return false }
                return true
            }
        }
    }

    @Test func aFileURLLoadsUnderALocalKey() async throws {
        try await withSetup { setup in
            let file = setup.directory.appendingPathComponent("photo.png")
            try Fixtures.data("photo.png").write(to: file)
            let local = try await setup.manager.retrieveImage(with: file)
            #expect(local.image.pixelWidth == 190)
            #expect(local.source.cacheKey == file.localFileCacheKey && file.localFileCacheKey.hasPrefix("kingfisher.local.cacheKey/"))
            #expect(setup.server.totalRequests == 0)
        }
    }
}

/// The manager's cancellation, on a ControllableTransport: the test holds the exchange, so the
/// cancellation lands while the download runs or while a retry waits.
@Suite(.timeLimit(.minutes(10))) struct KingfisherManagerCancellationTests {
    let transport = ControllableTransport()
    let url = URL(string: "https://example.com/photo.png")!

    /// Runs `body` with a manager on the transport, caching in a temporary directory.
    func withManager(_ body: (KingfisherManager, ImageCache) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let cache = try ImageCache(name: "manager", cacheDirectoryURL: directory)
            try await body(KingfisherManager(downloader: transport.makeDownloader(), cache: cache), cache)
        }
    }

    @Test func cancellingTheCallingTaskCancelsTheDownload() async throws {
        try await withManager { manager, cache in
            // Given a retrieval whose exchange has started
            let task = Task { try await manager.retrieveImage(with: url) }
            let exchange = try await transport.nextExchange()

            // When the calling task is cancelled
            task.cancel()

            // Then the retrieval throws taskCancelled, the exchange is cancelled, nothing is cached
            await #expect { try await task.value } throws: { ($0 as? KingfisherError)?.isTaskCancelled == true }
            try await exchange.cancelled()
            #expect(!cache.isCached(forKey: url.cacheKey))
        }
    }

    /// A strategy that retries after 30 s, and tells when it has been asked.
    final class SlowRetry: RetryStrategy {
        let asked = WaitableState(false)
        let inner = DelayRetryStrategy(maxRetryCount: 3, retryInterval: .seconds(600))

        func retry(context: RetryContext, retryHandler: @escaping @Sendable (RetryDecision) -> Void) {
            inner.retry(context: context, retryHandler: retryHandler)
            asked.update { $0 = true }
        }
    }

    @Test func cancellingEndsARetryWait() async throws {
        try await withManager { manager, _ in
            // Given a retrieval waiting 600 s to retry a 503 (long enough that no stall of a loaded
            // machine lets the retry start before the cancellation)
            let strategy = SlowRetry()
            let task = Task { try await manager.retrieveImage(with: url, options: [.retryStrategy(strategy)]) }
            try await transport.nextExchange().respond(status: 503)
            try await strategy.asked.wait(until: { $0 })

            // When the calling task is cancelled
            task.cancel()

            // Then the retrieval throws at once that its task was cancelled, without retrying
            await #expect { try await task.value } throws: {
                guard case .requestError(reason: .asyncTaskContextCancelled) = $0 as? KingfisherError else { return false }
                return true
            }
            #expect(transport.startedCount == 1)
        }
    }
}
