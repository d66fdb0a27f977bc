import Foundation
import Testing
@testable import Kingfisher

/// KingfisherManager's flow against the loopback server, counting requests.
@Suite struct KingfisherManagerTests {
    /// A manager with its own downloader and a cache in a fresh directory.
    struct Setup {
        let server: TestHTTPServer
        let directory = TemporaryDirectory()
        let cache: ImageCache
        let manager: KingfisherManager

        init() async throws {
            server = try await TestHTTPServer()
            cache = try ImageCache(name: "manager", cacheDirectoryURL: directory.url)
            manager = KingfisherManager(downloader: ImageDownloader(name: "manager"), cache: cache)
        }

        func finish() async {
            await server.shutdown()
            directory.cleanUp()
        }
    }

    func withSetup(_ body: (Setup) async throws -> Void) async throws {
        let setup = try await Setup()
        try await body(setup)
        await setup.finish()
    }

    let resize = ResizingImageProcessor(referenceSize: CGSize(width: 20, height: 20), mode: .aspectFit)

    @Test func networkThenMemoryThenDiskWithPromotion() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            let first = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            #expect(first.cacheType == .none && first.metrics != nil && first.image.pixelWidth == 190)
            #expect(first.data() == (try Fixtures.data("photo.png")))
            let second = try await setup.manager.retrieveImage(with: url)
            #expect(second.cacheType == .memory)
            setup.cache.clearMemoryCache()
            let third = try await setup.manager.retrieveImage(with: url)
            #expect(third.cacheType == .disk && third.image.pixelWidth == 190)
            #expect(setup.cache.imageCachedType(forKey: url.cacheKey) == .memory, "a disk hit is promoted to memory")
            #expect(setup.server.requests("/image/photo.png") == 1)
        }
    }

    @Test func eachProcessorHasItsOwnKeyAndTheOriginalIsProcessedWithoutTheNetwork() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            let resized = try await setup.manager.retrieveImage(with: url, options: [.processor(resize), .cacheOriginalImage, .waitForCache])
            #expect(resized.image.pixelWidth == 20)
            #expect(setup.cache.imageCachedType(forKey: url.cacheKey, processorIdentifier: resize.identifier).cached)
            #expect(setup.cache.isCached(forKey: url.cacheKey), "the original under the unprocessed key")
            let blur = BlurImageProcessor(blurRadius: 4)
            setup.cache.clearMemoryCache()
            let blurred = try await setup.manager.retrieveImage(with: url, options: [.processor(blur), .waitForCache])
            #expect(blurred.cacheType == .none && blurred.image.pixelWidth == 190)
            #expect(setup.server.requests("/image/photo.png") == 1, "processed from the cached original")
            #expect(setup.cache.imageCachedType(forKey: url.cacheKey, processorIdentifier: blur.identifier).cached)
        }
    }

    @Test func onlyFromCacheForceRefreshAndFromMemoryCacheOrRefresh() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.gif")
            await #expect {
                try await setup.manager.retrieveImage(with: url, options: [.onlyFromCache])
            } throws: { error in
                guard case .cacheError(reason: .imageNotExisting(let key))? = error as? KingfisherError else { return false }
                return key == url.cacheKey
            }
            #expect(setup.server.requests("/image/photo.gif") == 0)
            _ = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            _ = try await setup.manager.retrieveImage(with: url, options: [.forceRefresh])
            #expect(setup.server.requests("/image/photo.gif") == 2)
            setup.cache.clearMemoryCache()
            let refreshed = try await setup.manager.retrieveImage(with: url, options: [.fromMemoryCacheOrRefresh])
            #expect(refreshed.cacheType == .none, "disk skipped")
            #expect(setup.server.requests("/image/photo.gif") == 3)
            let fromMemory = try await setup.manager.retrieveImage(with: url, options: [.fromMemoryCacheOrRefresh])
            #expect(fromMemory.cacheType == .memory)
        }
    }

    @Test func cacheMemoryOnlyAndImageModifier() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/image/photo.png")
            let tiny = KingfisherImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
            let result = try await setup.manager.retrieveImage(with: url, options: [
                .cacheMemoryOnly, .waitForCache, .imageModifier(AnyImageModifier { _ in tiny }),
            ])
            #expect(result.image === tiny)
            #expect(setup.cache.retrieveImageInMemoryCache(forKey: url.cacheKey)?.pixelWidth == 190, "the cached image is not modified")
            #expect(setup.cache.imageCachedType(forKey: url.cacheKey) == .memory)
            setup.cache.clearMemoryCache()
            #expect(!setup.cache.isCached(forKey: url.cacheKey), "nothing on disk")
        }
    }

    @Test func retriesCountAgainstAFlakyServer() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/flaky/2/photo.png")
            let result = try await setup.manager.retrieveImage(with: url, options: [
                .retryStrategy(DelayRetryStrategy(maxRetryCount: 3, retryInterval: .seconds(0))),
            ])
            #expect(result.image.pixelWidth == 190)
            #expect(setup.server.requests("/flaky/2/photo.png") == 3)

            let stubborn = setup.server.url("/flaky/5/photo.png")
            await #expect {
                try await setup.manager.retrieveImage(with: stubborn, options: [
                    .retryStrategy(DelayRetryStrategy(maxRetryCount: 2, retryInterval: .accumulated(0.01))),
                ])
            } throws: { ($0 as? KingfisherError)?.isInvalidResponseStatusCode(503) == true }
            #expect(setup.server.requests("/flaky/5/photo.png") == 3, "the first try and two retries")
        }
    }

    @Test func alternativeSourcesAreTriedInOrderThenExhausted() async throws {
        try await withSetup { setup in
            let broken = setup.server.url("/status/404"), alsoBroken = setup.server.url("/status/500")
            let good = setup.server.url("/image/photo.png")
            let result = try await setup.manager.retrieveImage(with: broken, options: [
                .alternativeSources([.network(alsoBroken), .network(good)]),
            ])
            #expect(result.source.url == good && result.originalSource.url == broken)
            #expect(setup.server.requests("/status/404") == 1 && setup.server.requests("/status/500") == 1)

            do {
                _ = try await setup.manager.retrieveImage(with: broken, options: [.alternativeSources([.network(alsoBroken)])])
                Issue.record("expected a failure")
            } catch let error as KingfisherError {
                guard case .imageSettingError(reason: .alternativeSourcesExhausted(let failures)) = error else {
                    Issue.record("\(error)"); return
                }
                #expect(failures.map { $0.source.url } == [broken, alsoBroken])
                #expect(failures.allSatisfy { $0.error.isInvalidResponseStatusCode() })
            }
        }
    }

    @Test func providersAndFileURLsLoadWithoutTheNetwork() async throws {
        try await withSetup { setup in
            let data = try Fixtures.data("photo.png")
            let raw = try await setup.manager.retrieveImage(with: .provider(RawImageDataProvider(data: data, cacheKey: "raw-photo")))
            #expect(raw.image.pixelWidth == 190 && raw.cacheType == .none)
            let again = try await setup.manager.retrieveImage(with: .provider(RawImageDataProvider(data: Data(), cacheKey: "raw-photo")))
            #expect(again.cacheType == .memory)

            let base64 = Base64ImageDataProvider(base64String: "data:image/png;base64," + data.base64EncodedString(), cacheKey: "b64")
            #expect(try await setup.manager.retrieveImage(with: .provider(base64)).image.pixelHeight == 127)

            let file = setup.directory.url.appendingPathComponent("photo.png")
            try data.write(to: file)
            let local = try await setup.manager.retrieveImage(with: file)
            #expect(local.image.pixelWidth == 190)
            #expect(local.source.cacheKey == file.localFileCacheKey && file.localFileCacheKey.hasPrefix("kingfisher.local.cacheKey/"))

            let bad = Base64ImageDataProvider(base64String: "%%%", cacheKey: "bad")
            await #expect {
                try await setup.manager.retrieveImage(with: .provider(bad))
            } throws: { error in
                guard case .imageSettingError(reason: .dataProviderError)? = error as? KingfisherError else { return false }
                return true
            }
            #expect(setup.server.stats.read { $0.requests.isEmpty })
        }
    }

    @Test func cancellingTheCallingTaskCancelsTheDownload() async throws {
        try await withSetup { setup in
            let url = setup.server.url("/slow/photo.png?chunk=512&interval=200")
            let task = Task { try await setup.manager.retrieveImage(with: url) }
            for _ in 0..<250 where setup.server.requests("/slow/photo.png") == 0 { try await Task.sleep(for: .milliseconds(20)) }
            task.cancel()
            await #expect { try await task.value } throws: { ($0 as? KingfisherError)?.isTaskCancelled == true }
            for _ in 0..<250 where setup.server.aborted("/slow/photo.png") == 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(setup.server.aborted("/slow/photo.png") == 1)
            #expect(!setup.cache.isCached(forKey: url.cacheKey))
        }
    }

    @Test func callbackFormReportsTheDownloadTaskAndDefaultOptionsApply() async throws {
        try await withSetup { setup in
            setup.manager.defaultOptions = [.processor(resize)]
            let url = setup.server.url("/image/photo.png")
            let updated = Locked(0)
            let result: Result<RetrieveImageResult, KingfisherError> = await withCheckedContinuation { continuation in
                let task = setup.manager.retrieveImage(with: url, options: [.callbackQueue(.untouch)],
                                                       downloadTaskUpdated: { _ in updated.withLock { $0 += 1 } }) {
                    continuation.resume(returning: $0)
                }
                #expect(task != nil)
            }
            let image = try result.get().image
            #expect(image.pixelWidth == 20, "the default processor applied")
            #expect(updated.withLock { $0 } == 0, "the first task is the returned one; updates are for retries and alternatives")
            let hit = setup.manager.retrieveImage(with: url, options: [.callbackQueue(.untouch)], completionHandler: nil)
            #expect(hit == nil, "no download task for a cache hit")
        }
    }

    @Test func permanentFailuresAreNotRetriedAndCancellingEndsARetryWait() async throws {
        try await withSetup { setup in
            let html = setup.server.url("/html")
            await #expect {
                try await setup.manager.retrieveImage(with: html, options: [
                    .retryStrategy(DelayRetryStrategy(maxRetryCount: 3, retryInterval: .seconds(0))),
                ])
            } throws: { error in
                guard case .responseError(reason: .notAnImage)? = error as? KingfisherError else { return false }
                return true
            }
            #expect(setup.server.requests("/html") == 1, "a body that is not an image is not fetched again")

            let failing = setup.server.url("/status/503")
            let task = Task {
                try await setup.manager.retrieveImage(with: failing, options: [
                    .retryStrategy(DelayRetryStrategy(maxRetryCount: 3, retryInterval: .seconds(30))),
                ])
            }
            for _ in 0..<250 where setup.server.requests("/status/503") == 0 { try await Task.sleep(for: .milliseconds(20)) }
            try await Task.sleep(for: .milliseconds(100))
            let start = ContinuousClock.now
            task.cancel()
            await #expect { try await task.value } throws: { ($0 as? KingfisherError)?.isTaskCancelled == true }
            #expect(ContinuousClock.now - start < .seconds(SanitizerAllowance.isActive ? 25 : 5), "not after the 30 s retry delay")
            #expect(setup.server.requests("/status/503") == 1)
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
}
