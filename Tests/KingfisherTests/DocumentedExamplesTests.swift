// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
// Not @testable: the examples use only what Kingfisher code can.
import Kingfisher
import KingfisherImaging
import KingfisherTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Kingfisher 8.11's documented examples (its README and the DocC articles "Common Tasks" and
/// "Topics"), ported with only the view type changed (`TestImageView` for `UIImageView`), the
/// URLs pointing at the loopback server, and waits added so that each example is checked.
///
/// Where Kingfisher's article still shows Kingfisher 7 code (`AsyncModifier` with
/// `reportModified:`, the top-level `ImageResource`, `.lowDataSource`), the form that compiles
/// against Kingfisher 8.11 is used, as a Kingfisher user would write it. Examples that name the
/// shared `ImageCache.default` or `ImageDownloader.default` use them, with keys unique to the run.
@MainActor
@Suite(.timeLimit(.minutes(10))) struct DocumentedExamplesTests {
    typealias SettingResult = Result<RetrieveImageResult, KingfisherError>

    /// Runs an article's lines as the synchronous code they are there (a view controller's):
    /// in an `async` function Swift would pick the `async` overloads of the same calls.
    func inSynchronousCode(_ lines: () -> Void) {
        lines()
    }

    /// `imageView.kf.setImage(...)` with the completion handler awaited.
    func settingImage(_ start: (@escaping ImageSettingCompletion) -> Void) async -> SettingResult {
        await withCheckedContinuation { continuation in start { continuation.resume(returning: $0) } }
    }

    // MARK: README

    @Test func readmeBasicUse() async throws {
        try await withTestHTTPServer { server in
            let imageView = TestImageView()
            let url = server.url("/image/photo.png?readme-basic")
            let result = await settingImage { done in
                imageView.kf.setImage(with: url, completionHandler: done)
            }
            #expect(try result.get().image === imageView.image)
            try await ImageCache.default.removeImage(forKey: url.cacheKey)
        }
    }

    @Test func readmeProcessorsAndCompletion() async throws {
        try await withTestHTTPServer { server in
            let imageView = TestImageView()
            let url = server.url("/image/photo_baseline_420.jpg?readme-processor")
            let processor =
                DownsamplingImageProcessor(size: imageView.bounds.size)
                |> RoundCornerImageProcessor(cornerRadius: 20)
            let placeholder = KFCrossPlatformImage(width: 2, height: 2, pixels: [UInt8](repeating: 128, count: 16))
            let printed: String = await withCheckedContinuation { continuation in
                imageView.kf.setImage(
                    with: url,
                    placeholder: placeholder,
                    options: [
                        .processor(processor),
                        .scaleFactor(2),
                        .cacheOriginalImage,
                    ]
                ) {
                    result in
                    switch result {
                    case .success(let value):
                        continuation.resume(returning: "Task done for: \(value.source.url?.absoluteString ?? "")")
                    case .failure(let error):
                        continuation.resume(returning: "Job failed: \(error.localizedDescription)")
                    }
                }
            }
            #expect(printed == "Task done for: \(url.absoluteString)")
            // 190x127 pixels fit in the bounds' 200x160 pixels at scale 2: kept, at that scale.
            #expect(imageView.image?.scale == 2 && imageView.image?.size == CGSize(width: 95, height: 63.5))
            try await ImageCache.default.removeImage(forKey: url.cacheKey, processorIdentifier: processor.identifier)
            try await ImageCache.default.removeImage(forKey: url.cacheKey)
        }
    }

    // MARK: Common Tasks: Cache

    @Test func cacheCustomKeyAndLookups() async throws {
        try await withTestHTTPServer { server in
            let imageView = TestImageView()
            let url = server.url("/image/photo.png")
            let cacheKey = "my_cache_key-\(UUID().uuidString)"
            // Kingfisher 8 deprecates the top-level `ImageResource` for `KF.ImageResource`.
            let resource = KF.ImageResource(
                downloadURL: url,
                cacheKey: cacheKey
            )
            _ = await settingImage { imageView.kf.setImage(with: resource, completionHandler: $0) }

            let cache = ImageCache.default
            let cached = cache.isCached(forKey: cacheKey)
            // To know where the cached image is:
            let cacheType = cache.imageCachedType(forKey: cacheKey)
            // `.memory`, `.disk` or `.none`.
            #expect(cached && cacheType == .memory)
            let asyncType = await cache.imageCachedTypeAsync(forKey: cacheKey)
            #expect(asyncType == .memory)

            let processor = RoundCornerImageProcessor(cornerRadius: 20)
            _ = await settingImage { imageView.kf.setImage(with: resource, options: [.processor(processor)], completionHandler: $0) }
            // Later
            #expect(cache.isCached(forKey: cacheKey, processorIdentifier: processor.identifier))

            let retrieved: String = await withCheckedContinuation { continuation in
                cache.retrieveImage(forKey: cacheKey) { result in
                    switch result {
                    case .success(let value):
                        continuation.resume(returning: "\(value.cacheType) \(value.image != nil)")
                    case .failure(let error):
                        continuation.resume(returning: "\(error)")
                    }
                }
            }
            #expect(retrieved == "memory true")

            await withCheckedContinuation { continuation in
                cache.removeImage(
                    forKey: cacheKey,
                    processorIdentifier: processor.identifier,
                    fromMemory: false,
                    fromDisk: true
                ) {
                    continuation.resume()
                }
            }
            #expect(cache.imageCachedType(forKey: cacheKey, processorIdentifier: processor.identifier) == .memory)
            inSynchronousCode { cache.removeImage(forKey: cacheKey) }
            try await cache.removeImage(forKey: cacheKey, processorIdentifier: processor.identifier)
        }
    }

    @Test func cacheConfigurationStoreAndClean() async throws {
        // The name identifies the disk cache bound to the `ImageCache`.
        let cache = ImageCache(name: "my-own-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache.diskStorage.directoryURL) }
        // Limit memory cache size to 300 MB.
        cache.memoryStorage.config.totalCostLimit = 300 * 1024 * 1024
        // Limit memory cache to hold 150 images at most.
        cache.memoryStorage.config.countLimit = 150
        // Limit disk cache size to 1 GB.
        cache.diskStorage.config.sizeLimit = 1000 * 1024 * 1024
        // Set memory image expires after 10 minutes.
        cache.memoryStorage.config.expiration = .seconds(600)
        // Set disk image never expires.
        cache.diskStorage.config.expiration = .never
        // Check memory clean up every 30 seconds.
        cache.memoryStorage.config.cleanInterval = 30

        let data = try Data(
            contentsOf: Fixtures.directory.appendingPathComponent("photo.png"))
        let image = try KingfisherImage.decode(data: data)
        inSynchronousCode { cache.store(image, original: data, forKey: "stored") }
        #expect(cache.imageCachedType(forKey: "stored") == .memory)

        // Remove all. (The disk store runs in the background, before the clearing.)
        cache.clearMemoryCache()
        await withCheckedContinuation { continuation in
            cache.clearDiskCache {
                print("Done")
                continuation.resume()
            }
        }
        #expect(cache.imageCachedType(forKey: "stored") == .none)
        // Remove only expired.
        cache.cleanExpiredMemoryCache()
        await withCheckedContinuation { continuation in
            cache.cleanExpiredDiskCache {
                print("Done")
                continuation.resume()
            }
        }
        let reported: String = await withCheckedContinuation { continuation in
            cache.calculateDiskStorageSize { result in
                switch result {
                case .success(let size):
                    continuation.resume(returning: "Disk cache size: \(Double(size) / 1024 / 1024) MB")
                case .failure(let error):
                    continuation.resume(returning: "\(error)")
                }
            }
        }
        #expect(reported == "Disk cache size: 0.0 MB")
    }

    @Test func cacheOptionsForceRefreshOnlyFromCacheAndWaitForCache() async throws {
        try await withTestHTTPServer { server in
            let imageView = TestImageView()
            let url = server.url("/image/photo.png?wait-for-cache-\(UUID().uuidString)")
            let cache = ImageCache.default
            _ = await settingImage { imageView.kf.setImage(with: url, options: [.memoryCacheExpiration(.never)], completionHandler: $0) }
            _ = await settingImage { imageView.kf.setImage(with: url, options: [.forceRefresh], completionHandler: $0) }
            #expect(server.requests("/image/photo.png") == 2)
            let fromCache = await settingImage { imageView.kf.setImage(with: url, options: [.onlyFromCache], completionHandler: $0) }
            #expect(try fromCache.get().cacheType == .memory)

            let onDisk: Bool = await withCheckedContinuation { continuation in
                imageView.kf.setImage(with: url, options: [.waitForCache, .forceRefresh]) { _ in
                    ImageCache.default.retrieveImageInDiskCache(forKey: url.cacheKey) { result in
                        switch result {
                        case .success(let image):
                            // `image` exists.
                            continuation.resume(returning: image != nil)
                        case .failure: continuation.resume(returning: false)
                        }
                    }
                }
            }
            #expect(onDisk)
            try await cache.removeImage(forKey: url.cacheKey)
        }
    }

    // MARK: Common Tasks: Downloader

    /// Kingfisher 8's asynchronous modifier (the article still shows Kingfisher 7's).
    final class AsyncModifier: AsyncImageDownloadRequestModifier, @unchecked Sendable {
        var onDownloadTaskStarted: (@Sendable (DownloadTask?) -> Void)?

        func modified(for request: URLRequest) async -> URLRequest? {
            var r = request
            r.setValue(await someAsyncOperation(), forHTTPHeaderField: "Access-Token")
            return r
        }

        private func someAsyncOperation() async -> String {
            await Task.yield()
            return "async-abc"
        }
    }

    @Test func downloaderExamples() async throws {
        try await withTestHTTPServer { server in
            let url = server.url("/image/photo.png")
            let downloader = ImageDownloader.default
            let image: KFCrossPlatformImage? = await withCheckedContinuation { continuation in
                downloader.downloadImage(with: url) { result in
                    switch result {
                    case .success(let value):
                        continuation.resume(returning: value.image)
                    case .failure(let error):
                        print(error)
                        continuation.resume(returning: nil)
                    }
                }
            }
            #expect(image?.pixelWidth == 190)

            let modifier = AnyModifier { request in
                var r = request
                r.setValue("abc", forHTTPHeaderField: "Access-Token")
                return r
            }
            await withCheckedContinuation { continuation in
                downloader.downloadImage(with: url, options: [.requestModifier(modifier)]) {
                    result in
                    continuation.resume()
                }
            }
            #expect(server.headers("/image/photo.png")["access-token"] == "abc")

            let imageView = TestImageView()
            let asyncModifier = AsyncModifier()
            let started = AsyncStream<Bool>.makeStream()
            asyncModifier.onDownloadTaskStarted = { task in
                if let task = task {
                    print("A download task started: \(task)")
                    started.continuation.yield(true)
                }
            }
            let asyncURL = server.url("/image/photo.png?async-\(UUID().uuidString)")
            // Kingfisher 7 returned no task here; Kingfisher 8 returns one that starts after the modifier.
            let nilTask = imageView.kf.setImage(with: asyncURL, options: [.requestModifier(asyncModifier)])
            #expect(nilTask?.url == asyncURL)
            var iterator = started.stream.makeAsyncIterator()
            #expect(await iterator.next() == true)

            // Set the timeout to 1 minute.
            downloader.downloadTimeout = 60
            #expect(downloader.downloadTimeout == 60)
            downloader.downloadTimeout = 15
            try await ImageCache.default.removeImage(forKey: asyncURL.cacheKey)
        }
    }

    @Test func cancellingADownload() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "documented-cancel")
            let url = server.url("/slow/photo.png?chunk=64&interval=50")
            let cancelled: Bool = await withCheckedContinuation { continuation in
                let task = downloader.downloadImage(with: url) { result in
                    switch result {
                    case .success: continuation.resume(returning: false)
                    case .failure(let error):
                        print(error.isTaskCancelled)  // true
                        continuation.resume(returning: error.isTaskCancelled)
                    }
                }
                // After some time, but before the download task completes.
                task.cancel()
            }
            #expect(cancelled)
        }
    }

    // MARK: Common Tasks: Processor and Serializer

    struct MyProcessor: ImageProcessor {
        let someValue: Int

        var identifier: String { "com.yourdomain.myprocessor-\(someValue)" }

        // Convert input data/image to target image and return it.
        func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
            switch item {
            case .image(let image):
                // A previous processor already converted the image to an image object.
                return image
            case .data(let data):
                // Your own way to convert some data to an image.
                return try? KingfisherImage.decode(data: data).kf.blurred(withRadius: CGFloat(someValue))
            }
        }
    }

    struct MyCacheSerializer: CacheSerializer {
        func data(with image: KFCrossPlatformImage, original: Data?) -> Data? {
            image.kf.webpRepresentation(compressionQuality: 1, lossless: true)
        }

        func image(with data: Data, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
            try? KingfisherImage.decode(data: data)
        }
    }

    @Test func processorsSerializersAndTheirComposition() async throws {
        try await withTestHTTPServer { server in
            let imageView = TestImageView()
            let url = server.url("/image/photo.png?processors-\(UUID().uuidString)")
            let processors: [any ImageProcessor] = [
                DefaultImageProcessor.default,
                RoundCornerImageProcessor(cornerRadius: 20),
                DownsamplingImageProcessor(size: CGSize(width: 100, height: 100)),
                CroppingImageProcessor(size: CGSize(width: 100, height: 100), anchor: CGPoint(x: 0.5, y: 0.5)),
                BlurImageProcessor(blurRadius: 5.0),
                OverlayImageProcessor(overlay: .red, fraction: 0.7),
                TintImageProcessor(tint: .blue),
                ColorControlsProcessor(brightness: 1.0, contrast: 0.7, saturation: 1.1, inputEV: 0.7),
                BlackWhiteProcessor(),
                BlendImageProcessor(blendMode: .darken, alpha: 1.0, backgroundColor: .lightGray),
                // First blur the image, then make it round cornered.
                BlurImageProcessor(blurRadius: 4) |> RoundCornerImageProcessor(cornerRadius: 20),
                MyProcessor(someValue: 10),
            ]
            for processor in processors {
                let result = await settingImage {
                    imageView.kf.setImage(with: url, options: [.processor(processor)], completionHandler: $0)
                }
                #expect((try? result.get()) != nil, "\(processor.identifier)")
                try await ImageCache.default.removeImage(forKey: url.cacheKey, processorIdentifier: processor.identifier)
            }

            let roundCorner = RoundCornerImageProcessor(cornerRadius: 20)
            _ = await settingImage {
                imageView.kf.setImage(
                    with: url,
                    options: [
                        .processor(roundCorner),
                        .cacheSerializer(FormatIndicatedCacheSerializer.png),
                    ], completionHandler: $0
                )
            }
            let serializer = MyCacheSerializer()
            let custom = server.url("/image/photo.png?serializer-\(UUID().uuidString)")
            _ = await settingImage {
                imageView.kf.setImage(with: custom, options: [.cacheSerializer(serializer), .waitForCache], completionHandler: $0)
            }
            let stored = try #require(ImageCache.default.cacheFileURLIfOnDisk(forKey: custom.cacheKey))
            #expect(try Data(contentsOf: stored).kf.imageFileFormat == .WebP, "stored by the custom serializer")
            try await ImageCache.default.removeImage(forKey: url.cacheKey, processorIdentifier: roundCorner.identifier)
            try await ImageCache.default.removeImage(forKey: custom.cacheKey)
        }
    }

    // MARK: Topics: data providers, prefetching, retrying, performance

    /// The article's provider draws a letter with UIKit; this one fills the square with the
    /// article's yellow, which is all a test can check.
    struct UserNameLetterIconImageProvider: ImageDataProvider {
        var cacheKey: String { return letter }
        let letter: String

        init(userNameFirstLetter: String) {
            self.letter = userNameFirstLetter
        }

        func data(handler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
            let yellow: [UInt8] = [255, 204, 0, 255]
            let image = KFCrossPlatformImage(
                width: 250, height: 250, pixels: Array([[UInt8]](repeating: yellow, count: 250 * 250).joined()))
            // Provide the image data in `handler`.
            handler(Result { try image.encoded(as: .PNG) })
        }
    }

    @Test func dataProviders() async throws {
        let imageView = TestImageView()
        let path = Fixtures.directory.appendingPathComponent("photo.png").path
        let url = URL(fileURLWithPath: path)
        let provider = LocalFileImageDataProvider(fileURL: url)
        let local = await settingImage { imageView.kf.setImage(with: provider, completionHandler: $0) }
        #expect(try local.get().image.pixelWidth == 190)
        let processor = RoundCornerImageProcessor(cornerRadius: 20)
        _ = await settingImage { imageView.kf.setImage(with: provider, options: [.processor(processor)], completionHandler: $0) }

        let base64 = try Data(contentsOf: url).base64EncodedString()
        let base64Provider = Base64ImageDataProvider(base64String: base64, cacheKey: "some-cache-key-\(UUID().uuidString)")
        #expect(try await settingImage { imageView.kf.setImage(with: base64Provider, completionHandler: $0) }.get().image.pixelWidth == 190)

        // Set image for user "John"
        let letter = UserNameLetterIconImageProvider(userNameFirstLetter: "J-\(UUID().uuidString)")
        let icon = await settingImage {
            imageView.kf.setImage(
                with: letter,
                options: [.processor(RoundCornerImageProcessor(radius: .point(75)))],
                completionHandler: $0
            )
        }
        let image = try icon.get().image
        #expect(
            image.pixelWidth == 250 && image.pixels[3] == 0 && image.pixels[(125 * 250 + 125) * 4] == 255,
            "a yellow square with its corners cut")
        for key in [provider.cacheKey, base64Provider.cacheKey, letter.cacheKey] { try await ImageCache.default.removeImage(forKey: key) }
    }

    @Test func prefetchingThenShowing() async throws {
        try await withTestHTTPServer { server in
            let urls = [
                server.url("/image/photo.png?prefetch-1-\(UUID().uuidString)"),
                server.url("/image/photo.gif?prefetch-2-\(UUID().uuidString)"),
            ]
            // The trailing closure is the progress block, as in Kingfisher (both it and the
            // completion handler are defaulted): it runs after each item, so the wait ends when
            // every item is in one of the lists.
            let completed: Int = await withCheckedContinuation { continuation in
                let prefetcher = ImagePrefetcher(urls: urls) {
                    skippedResources, failedResources, completedResources in
                    print("These resources are prefetched: \(completedResources)")
                    if skippedResources.count + failedResources.count + completedResources.count == urls.count {
                        continuation.resume(returning: completedResources.count)
                    }
                }
                prefetcher.start()
            }
            #expect(completed == 2)
            // Later when you need to display these images:
            let imageView = TestImageView()
            let anotherImageView = TestImageView()
            let first = await settingImage { imageView.kf.setImage(with: urls[0], completionHandler: $0) }
            let second = await settingImage { anotherImageView.kf.setImage(with: urls[1], completionHandler: $0) }
            #expect(try first.get().cacheType == .memory && second.get().cacheType == .memory)
            for url in urls { try await ImageCache.default.removeImage(forKey: url.cacheKey) }
        }
    }

    @Test func retryingAndNotCurrentTasks() async throws {
        try await withTestHTTPServer { server in
            let imageView = TestImageView()
            let url = server.url("/flaky/1/photo.png")
            let retry = DelayRetryStrategy(
                maxRetryCount: 5,
                retryInterval: .seconds(0.05)
            )
            let retried = await settingImage { imageView.kf.setImage(with: url, options: [.retryStrategy(retry)], completionHandler: $0) }
            #expect((try? retried.get()) != nil && server.requests("/flaky/1/photo.png") == 2)

            // Retries when the network is available (NetworkRetryStrategyTests check its waiting).
            let networkRetry = NetworkRetryStrategy()
            let flaky = server.url("/image/photo.png?network-retry-\(UUID().uuidString)")
            let networkRetried = await settingImage {
                imageView.kf.setImage(with: flaky, options: [.retryStrategy(networkRetry)], completionHandler: $0)
            }
            #expect((try? networkRetried.get()) != nil)

            let url1 = server.url("/slow/photo.png?chunk=512&interval=20")
            let url2 = server.url("/image/photo.gif?not-current-\(UUID().uuidString)")
            // Both completions arrive, in either order.
            let results = WaitableState<(first: SettingResult?, second: SettingResult?)>((nil, nil))
            imageView.kf.setImage(with: url1) { result in
                // `result` is `.failure(.imageSettingError(.notCurrentSourceTask))`
                // due to another `setImage` below.
                results.update { $0.first = result }
            }
            // Set again immediately.
            imageView.kf.setImage(with: url2) { result in
                // `result` is `.success`
                results.update { $0.second = result }
            }
            let outcomes = try await results.waitForValue { state -> (SettingResult, SettingResult)? in
                guard let first = state.first, let second = state.second else { return nil }
                return (first, second)
            }
            guard case .failure(.imageSettingError(reason: .notCurrentSourceTask)) = outcomes.0 else {
                Issue.record("\(outcomes.0)")
                return
            }
            #expect((try? outcomes.1.get()) != nil)
            for key in [url.cacheKey, flaky.cacheKey, url1.cacheKey, url2.cacheKey] {
                try await ImageCache.default.removeImage(forKey: key)
            }
        }
    }
}
