// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
// Not @testable: what compiles here is what Kingfisher code written against the public API gets.
import Kingfisher
import KingfisherImaging
import KingfisherTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Kingfisher 8 code, as its users write it, compiling and behaving as there.
@Suite(.timeLimit(.minutes(10))) struct KingfisherSourceCompatibilityTests {
    @Test func resultsCanBeBuiltOutsideTheLibrary() throws {
        let image = KFCrossPlatformImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))
        let url = URL(string: "https://example.com/photo.png")!
        let loaded = ImageLoadingResult(image: image, originalData: Data([1, 2, 3]))
        #expect(loaded.url == nil && loaded.metrics == nil && loaded.originalData == Data([1, 2, 3]))
        let source = Source.network(KF.ImageResource(downloadURL: url))
        let retrieved = RetrieveImageResult(
            image: image, cacheType: .disk, source: source, originalSource: source,
            data: { Data([4]) })
        #expect(retrieved.cacheType == .disk && retrieved.data() == Data([4]) && retrieved.metrics == nil)
        #expect(retrieved.source.url == url)
    }

    @Test func anOperationQueueRunsTheCompletion() async throws {
        try await withManagerSetup(name: "operation-queue") { setup in
            let queue = OperationQueue()
            queue.name = "callbacks"
            queue.maxConcurrentOperationCount = 1
            let provider = RawImageDataProvider(data: try Fixtures.data("photo.png"), cacheKey: "raw-photo")
            let ranOnQueue: Bool = try await withCheckedThrowingContinuation { continuation in
                setup.manager.retrieveImage(with: provider.convertToSource(), options: [.callbackQueue(.operationQueue(queue))]) { result in
                    switch result {
                    case .success: continuation.resume(returning: OperationQueue.current === queue)
                    case .failure(let error): continuation.resume(throwing: error)
                    }
                }
            }
            #expect(ranOnQueue)
            // ExecutionQueue is Kingfisher's other name for the same type.
            let execution: ExecutionQueue = .operationQueue(queue)
            let ran: Bool = await withCheckedContinuation { continuation in
                execution.execute { continuation.resume(returning: OperationQueue.current === queue) }
            }
            #expect(ran)
        }
    }

    @Test func aThrowingModifierHandsTheImageOverUnchanged() throws {
        struct Refused: Error {}
        let image = KFCrossPlatformImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))
        let refusing = AnyImageModifier { _ in throw Refused() }
        #expect(refusing.modify(image) === image)
        let builder = KF.url(URL(string: "https://example.com/a.png")).imageModifier { (image: inout KFCrossPlatformImage) in
            throw Refused()
        }
        #expect(builder.options.imageModifier?.modify(image) === image)
    }

    /// A provider written the Kingfisher way, with only the callback form.
    struct CallbackProvider: ImageDataProvider {
        let cacheKey: String
        let file: URL
        func data(handler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
            DispatchQueue.global().async { handler(Result { try Data(contentsOf: file) }) }
        }
    }

    @Test func aProviderWithOnlyTheCallbackFormLoads() async throws {
        try await withManagerSetup(name: "callback-provider") { setup in
            let provider = CallbackProvider(cacheKey: "callback-photo", file: Fixtures.directory.appendingPathComponent("photo.png"))
            let result = try await setup.manager.retrieveImage(with: .provider(provider))
            #expect(result.image.size.width > 0 && result.cacheType == .none)
            #expect(try await provider.data() == Data(contentsOf: provider.file))
        }
    }

    @Test func aThumbnailProviderGivesASmallImageInTheFilesFormat() async throws {
        let file = Fixtures.directory.appendingPathComponent("photo_baseline_420.jpg")
        let provider = ThumbnailImageDataProvider(url: file, maxPixelSize: 64)
        #expect(provider.cacheKey == "\(file.absoluteString)_thumb_64.0_true")
        let data = try await provider.data()
        #expect(data.kf.imageFormat == .JPEG)
        let thumbnail = try KingfisherImage.decode(data: data)
        #expect(max(thumbnail.size.width, thumbnail.size.height) == 64)

        let remote = ThumbnailImageDataProvider(url: URL(string: "https://example.com/a.jpg")!, maxPixelSize: 64)
        await #expect(throws: ThumbnailImageDataProvider.ThumbnailImageDataProviderError.invalidImageSource) {
            try await remote.data()
        }
    }

    @Test func errorHelpersMeanWhatTheyMeanInKingfisher() {
        let response = HTTPURLResponse(
            url: URL(string: "https://example.com/a.png")!, statusCode: 404, httpVersion: nil, headerFields: nil)!
        let notFound = KingfisherError.responseError(reason: .invalidHTTPStatusCode(response: response))
        #expect(notFound.isInvalidResponseStatusCode && notFound.isInvalidResponseStatusCode(404))
        #expect(!notFound.isInvalidResponseStatusCode(500) && !notFound.isTaskCancelled)
        #expect(!KingfisherError.requestError(reason: .asyncTaskContextCancelled).isTaskCancelled)
    }

    @Test func theMemoryStorageReportsItsCostByKingfishersName() {
        let storage = MemoryStorage.Backend<KFCrossPlatformImage>(config: .init(totalCostLimit: 1 << 20))
        storage.store(value: KFCrossPlatformImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16)), forKey: "a")
        #expect(storage.totalCacheCost() == storage.totalCost && storage.totalCacheCost() > 0)
    }

    @Test func downloaderAsyncFormsTakeAnOptionsArray() async throws {
        try await withManagerSetup(name: "downloader-forms") { setup in
            let downloader = setup.manager.downloader
            let url = setup.server.url("/image/photo.png")
            let resized = try await downloader.downloadImage(
                with: url, options: [.processor(ResizingImageProcessor(referenceSize: CGSize(width: 10, height: 10)))])
            #expect(resized.image.size == CGSize(width: 10, height: 10))
            let progress = Locked<Int64>(0)
            let plain = try await downloader.downloadImage(
                with: url, options: nil,
                progressBlock: { received, _ in
                    progress.withLock { $0 = received }
                })
            #expect(progress.withLock { $0 } == Int64(plain.originalData.count))
            let task: DownloadTask = downloader.downloadImage(with: url, options: [.callbackQueue(.untouch)]) { _ in }
            #expect(task.url == url)
        }
    }

    @Test func cacheCallsWrittenForKingfisherCompleteWhereKingfishersDo() async throws {
        try await withManagerSetup(name: "cache-forms") { setup in
            let cache = setup.cache
            let image = KFCrossPlatformImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))
            try await cache.store(image, forKey: "k", processorIdentifier: "", forcedExtension: nil)
            #expect(try await cache.retrieveImage(forKey: "k", options: [.loadDiskFileSynchronously]).cacheType == .memory)
            #expect(try await cache.retrieveImageInDiskCache(forKey: "k", options: [.forceRefresh]) != nil)
            #expect(await cache.imageCachedTypeAsync(forKey: "k") == .memory)
            // The main queue, wherever the test runner drains it.
            let mainKey = DispatchSpecificKey<Bool>()
            DispatchQueue.main.setSpecific(key: mainKey, value: true)
            let onMain: Bool = await withCheckedContinuation { continuation in
                cache.calculateDiskStorageSize { _ in continuation.resume(returning: DispatchQueue.getSpecific(key: mainKey) == true) }
            }
            #expect(onMain, "completions of the cache's clean-up calls run on main, as Kingfisher's")
            await withCheckedContinuation { continuation in cache.removeImage(forKey: "k") { continuation.resume() } }
            #expect(!cache.isCached(forKey: "k"))
            let cleanedOnMain: Bool = await withCheckedContinuation { continuation in
                cache.cleanExpiredDiskCache { continuation.resume(returning: DispatchQueue.getSpecific(key: mainKey) == true) }
            }
            #expect(cleanedOnMain)
            await withCheckedContinuation { continuation in cache.clearCache { continuation.resume() } }
        }
    }

    @Test func aBuildersRedirectBlockAnswersThroughThePayload() async throws {
        try await withManagerSetup(name: "redirect-block") { setup in
            let seen = Locked<[Int]>([])
            let builder = KF.url(setup.server.url("/redirect/2/photo.png"))
                .targetCache(setup.cache)
                .downloader(setup.manager.downloader)
                .redirectHandler { payload in
                    seen.withLock { $0.append(payload.response.statusCode) }
                    var request = payload.newRequest
                    request.setValue("block", forHTTPHeaderField: "X-Redirected-By")
                    payload.completionHandler(request)
                }
            _ = try await builder.image()
            #expect(seen.withLock { $0 } == [302, 302])
            #expect(setup.server.headers("/image/photo.png")["x-redirected-by"] == "block")
        }
    }

    /// Exhaustive switches as Kingfisher code writes them, with no `default`: they compile only
    /// while these enums have Kingfisher's cases and no others.
    @Test func switchesWrittenForKingfisherStayExhaustive() async throws {
        func group(_ error: KingfisherError) -> String {
            switch error {
            case .requestError: return "request"
            case .responseError(let reason):
                switch reason {
                case .invalidURLResponse, .invalidHTTPStatusCode, .dataModifyingFailed, .noURLResponse, .cancelledByDelegate:
                    return "response"
                case .URLSessionError: return "transport"
                }
            case .cacheError: return "cache"
            case .processorError(let reason):
                switch reason {
                case .processingFailed: return "processor"
                }
            case .imageSettingError: return "setting"
            }
        }
        func name(_ format: ImageFormat) -> String {
            switch format {
            case .unknown: return "?"
            case .PNG: return "png"
            case .JPEG: return "jpeg"
            case .GIF: return "gif"
            }
        }
        try await withManagerSetup(name: "switches") { setup in
            let downloader = setup.manager.downloader
            downloader.redirectLimit = 1
            let html = await kingfisherError { _ = try await downloader.downloadImage(with: setup.server.url("/html")) }
            #expect(html.map(group) == "processor")
            #expect(html?.imageCodingError == .unknownFormat(description: "an HTML document"))
            let loop = await kingfisherError { _ = try await downloader.downloadImage(with: setup.server.url("/loop")) }
            #expect(loop.map(group) == "transport")
        }
        #expect(name(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).kf.imageFormat) == "png")
    }

    @Test func aDelegateHoldsItsTargetWeakly() async {
        final class Owner: Sendable {
            let name = "owner"
        }
        let described = Delegate<Int, String>()
        let optional = Delegate<Int, String?>()
        #expect(!described.isSet && described(1) == nil && optional(1) == nil)
        var owner: Owner? = Owner()
        described.delegate(on: owner!) { (owner, value) in "\(owner.name) \(value)" }
        optional.delegate(on: owner!) { (_, value) in value > 0 ? "positive" : nil }
        described.delegate(on: owner!) { (owner, value) async in "\(owner.name) waited for \(value)" }
        #expect(described(2) == "owner 2" && described.isSet)
        #expect(await described.callAsync(3) == "owner waited for 3")
        #expect(optional(-1) == nil && optional(1) == "positive")
        owner = nil
        #expect(described(4) == nil, "the target is gone, so is the answer")
    }

    @Test func aLowDataModeSourceIsKeptInTheOptions() {
        let low = URL(string: "https://example.com/low.jpg")!
        let parsed = KingfisherParsedOptionsInfo([.lowDataMode(.network(KF.ImageResource(downloadURL: low)))])
        #expect(parsed.lowDataModeSource?.url == low)
        let builder = KF.url(URL(string: "https://example.com/a.jpg")).lowDataModeSource(.network(KF.ImageResource(downloadURL: low)))
        #expect(builder.options.lowDataModeSource?.url == low)
    }

    @Test func animatedImagesHaveKingfishersFrameAPI() throws {
        let gif = try KingfisherImage.decode(data: Fixtures.data("gif_disposal_background.gif"))
        #expect(gif.kf.imageFrameCount == 3)
        #expect(KFCrossPlatformImage(width: 1, height: 1, pixels: [0, 0, 0, 255]).kf.imageFrameCount == nil)
        let frames = try #require(gif.kf.frameSource)
        #expect(frames.frameCount == 3 && frames.data == gif.originalData)
        #expect(frames.frame(at: 1)?.pixels == (try gif.frame(at: 1)).pixels)
        let small = try #require(frames.frame(at: 2, maxSize: CGSize(width: 4, height: 4)))
        #expect(max(small.pixelWidth, small.pixelHeight) == 4)

        let webp = try #require(
            KingfisherWrapper<KFCrossPlatformImage>.animatedImage(
                data: Fixtures.data("webp_animated.webp"), options: ImageCreatingOptions()))
        #expect(webp.frameCount == 3)
        #expect(
            ImageCreatingOptions(scale: 2) == ImageCreatingOptions(scale: 2) && ImageCreatingOptions() != ImageCreatingOptions(scale: 2))
    }

    /// Frames drawn by code: one grey level per frame, the last of the wrong size.
    struct GreyFrames: ImageFrameSource {
        var data: Data? { nil }
        var frameCount: Int { 4 }
        func frame(at index: Int, maxSize: CGSize?) -> KFCrossPlatformImage? {
            let side = index == 3 ? 3 : 2
            let grey = UInt8(index * 60)
            return KFCrossPlatformImage(
                width: side, height: side, pixels: Array(repeating: [grey, grey, grey, 255], count: side * side).flatMap { $0 })
        }
        func duration(at index: Int) -> TimeInterval { 0.05 * Double(index + 1) }
    }

    @Test func anAnimationFromAFrameSourceAsksForFramesWhenNeeded() throws {
        let image = try #require(
            KingfisherWrapper<KFCrossPlatformImage>.animatedImage(source: GreyFrames(), options: ImageCreatingOptions()))
        #expect(image.frameCount == 4 && image.pixelWidth == 2)
        #expect(try image.frame(at: 2).pixels[0] == 120 && abs(image.frameDuration(at: 2) - 0.15) < 1e-9)
        #expect(throws: ImageCodingError.self) { try image.frame(at: 3) }
        #expect(
            KingfisherWrapper<KFCrossPlatformImage>.animatedImage(source: GreyFrames(), options: ImageCreatingOptions(preloadAll: true))
                == nil,
            "decoded up front, the wrong-sized frame fails the whole image")
        #expect(GIFAnimatedImage.getFrameDuration(from: ["UnclampedDelayTime": 0.05, "DelayTime": 0.1]) == 0.05)
        #expect(GIFAnimatedImage.getFrameDuration(from: ["DelayTime": 0.01]) == 0.1)
        #expect(GIFAnimatedImage.getFrameDuration(from: nil) == 0.1)
    }

    /// A custom effect written the Kingfisher way, as a `CIImageProcessor`.
    struct InvertProcessor: CIImageProcessor {
        let identifier = "com.example.invert"
        let filter = Filter(pixels: { pixels, _, _ in
            for index in stride(from: 0, to: pixels.count, by: 4) {
                for channel in 0..<3 { pixels[index + channel] = 255 - pixels[index + channel] }
            }
        })
    }

    @Test func filtersAreTheExtensionPointForCustomEffects() async throws {
        let photo = try KingfisherImage.decode(data: Fixtures.data("photo.png"))
        let red = KFCrossPlatformColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        #expect(
            photo.kf.apply(.tint(red)).pixels == TintImageProcessor(tint: red).process(item: .image(photo), options: .init(nil))?.pixels)
        let same = Filter.colorControl(.init(brightness: 0, contrast: 1, saturation: 1, inputEV: 0))
        #expect(photo.kf.apply(same).pixelWidth == photo.pixelWidth)
        #expect(photo.kf.apply(Filter { _ in nil }) === photo, "a filter giving nil keeps the image")

        try await withManagerSetup(name: "filter") { setup in
            let provider = RawImageDataProvider(data: try Fixtures.data("photo.png"), cacheKey: "filtered")
            let inverted = try await setup.manager.retrieveImage(with: .provider(provider), options: [.processor(InvertProcessor())]).image
            #expect(inverted.pixels[0] == 255 - photo.pixels[0] && inverted.pixels[3] == photo.pixels[3])
            #expect(setup.cache.isCached(forKey: "filtered", processorIdentifier: "com.example.invert"))
        }
    }
}
