// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherImaging
import KingfisherTestKit
import Testing

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Places where Kingfisher 8.11's sources and tests say how it behaves and this library once
/// behaved otherwise: equality of sources, the threads data providers answer on, cancelling a
/// provider's load, animations cached with other decoding options, subclassed downloaders.
@Suite(.timeLimit(.minutes(10))) struct KingfisherBehaviourParityTests {
    // MARK: Sources

    @Test func aNetworkSourceNeverEqualsAProviderSource() throws {
        let url = URL(string: "https://example.com/a.png")!
        let network = Source.network(KF.ImageResource(downloadURL: url, cacheKey: "a"))
        let provider = Source.provider(LocalFileImageDataProvider(fileURL: url, cacheKey: "a"))
        #expect(network.cacheKey == provider.cacheKey && network.url == provider.url)
        #expect(network != provider && provider != network)
        #expect(Set([network, provider]).count == 2)
        #expect(network == .network(KF.ImageResource(downloadURL: url, cacheKey: "a")))
        #expect(provider != .provider(RawImageDataProvider(data: Data(), cacheKey: "a")), "a provider's URL counts")
    }

    // MARK: Data providers' threads

    @Test func inMemoryProvidersAnswerOnTheCallingThreadAtOnce() throws {
        let caller = pthread_self()
        let data = try Fixtures.data("photo.png")
        let providers: [any ImageDataProvider] = [
            RawImageDataProvider(data: data, cacheKey: "raw"),
            Base64ImageDataProvider(base64String: data.base64EncodedString(), cacheKey: "base64"),
        ]
        for provider in providers {
            let answer = Locked<(Data?, Bool)?>(nil)
            provider.data { result in answer.withLock { $0 = (try? result.get(), pthread_equal(pthread_self(), caller) != 0) } }
            let answered = try #require(answer.withLock { $0 }, "\(provider.cacheKey) answered before returning")
            #expect(answered.0 == data && answered.1, "\(provider.cacheKey)")
        }
    }

    @Test func aLocalFileProviderAnswersOnItsLoadingQueue() async throws {
        let queue = DispatchQueue(label: "loading")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let file = Fixtures.directory.appendingPathComponent("photo.png")
        let provider = LocalFileImageDataProvider(fileURL: file, loadingQueue: .dispatch(queue))
        let (bytes, onQueue): (Data?, Bool) = await withCheckedContinuation { continuation in
            provider.data { result in
                continuation.resume(returning: (try? result.get(), DispatchQueue.getSpecific(key: key) == true))
            }
        }
        #expect(bytes == (try Fixtures.data("photo.png")))
        #expect(onQueue)
    }

    // MARK: Cancelling a provider's load

    /// A provider whose data arrives when the test says, whatever cancellation says meanwhile.
    final class GatedProvider: ImageDataProvider {
        let cacheKey = "gated"
        private let data: Data
        private let asked = AsyncStream<Void>.makeStream()
        private let gate = Locked<(open: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))

        init(data: Data) { self.data = data }

        func data() async throws -> Data {
            asked.continuation.yield()
            await withCheckedContinuation { continuation in
                let open = gate.withLock { gate -> Bool in
                    if !gate.open { gate.waiting = continuation }
                    return gate.open
                }
                if open { continuation.resume() }
            }
            return data
        }

        /// Returns once the load has asked for the data.
        func waitUntilAsked() async {
            for await _ in asked.stream { return }
        }

        func open() {
            gate.withLock { gate in
                defer { gate = (true, nil) }
                return gate.waiting
            }?.resume()
        }
    }

    @Test func aProviderRetrievalReturnsATaskWhoseCancelStopsIt() async throws {
        try await withManagerSetup(name: "parity-provider") { setup in
            let provider = GatedProvider(data: try Fixtures.data("photo.png"))
            let outcome = AsyncStream<Result<RetrieveImageResult, KingfisherError>>.makeStream()
            let task = setup.manager.retrieveImage(with: .provider(provider), options: [.callbackQueue(.untouch)]) { result in
                outcome.continuation.yield(result)
            }
            let started = try #require(task, "a task for the provider's load, as Kingfisher returns")
            #expect(started.isInitialized)
            await provider.waitUntilAsked()
            started.cancel()
            // The data arrives after the cancel: the image must not be delivered or cached.
            provider.open()
            var results = outcome.stream.makeAsyncIterator()
            let result = try #require(await results.next())
            guard case .failure(.requestError(reason: .dataProviderCancelled)) = result else {
                Issue.record("\(result)")
                return
            }
            #expect(setup.cache.imageCachedType(forKey: provider.cacheKey) == .none)
        }
    }

    /// A processor that holds its image until the test lets it go.
    final class HeldProcessor: ImageProcessor {
        let identifier = "held"
        let started = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)

        func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
            started.continuation.yield()
            release.wait()
            return DefaultImageProcessor.default.process(item: item, options: options)
        }
    }

    @Test func cancellingAProviderTaskWhileItsImageIsProcessedDropsTheImage() async throws {
        try await withManagerSetup(name: "parity-processing") { setup in
            let processor = HeldProcessor()
            let provider = RawImageDataProvider(data: try Fixtures.data("photo.png"), cacheKey: "held")
            let outcome = AsyncStream<Result<RetrieveImageResult, KingfisherError>>.makeStream()
            let task = setup.manager.retrieveImage(
                with: .provider(provider), options: [.processor(processor), .callbackQueue(.untouch)]
            ) { outcome.continuation.yield($0) }
            var started = processor.started.stream.makeAsyncIterator()
            await started.next()
            try #require(task).cancel()
            processor.release.signal()
            var results = outcome.stream.makeAsyncIterator()
            let result = try #require(await results.next())
            guard case .failure(.requestError(reason: .dataProviderCancelled)) = result else {
                Issue.record("\(result)")
                return
            }
            #expect(setup.cache.imageCachedType(forKey: "held", processorIdentifier: "held") == .none)
        }
    }

    // MARK: Animations cached with other decoding options

    @Test func aCachedAnimationAskedWithOtherOptionsIsDecodedAgain() async throws {
        try await withManagerSetup(name: "parity-frames") { setup in
            let gif = try Fixtures.data("gif_disposal_none.gif")
            let source = Source.provider(RawImageDataProvider(data: gif, cacheKey: "animation"))
            let firstOnly = try await setup.manager.retrieveImage(with: source, options: [.onlyLoadFirstFrame, .cacheMemoryOnly])
            #expect(firstOnly.image.frameCount == 1)
            let whole = try await setup.manager.retrieveImage(with: source, options: [.cacheMemoryOnly])
            #expect(whole.cacheType == .memory)
            #expect(whole.image.frameCount == 3, "every frame, not the cached first one")
            let again = try await setup.manager.retrieveImage(with: source, options: [.onlyLoadFirstFrame, .cacheMemoryOnly])
            #expect(again.cacheType == .memory && again.image.frameCount == 1)
        }
    }

    // MARK: Subclassed downloaders

    /// An app's downloader, as Kingfisher apps write them: it counts what the manager asks.
    final class CountingDownloader: ImageDownloader, @unchecked Sendable {
        let asked = Locked<[URL]>([])

        override func downloadImage(
            with url: URL, options: KingfisherParsedOptionsInfo,
            progressBlock: DownloadProgressBlock? = nil,
            completionHandler: (@Sendable (Result<ImageLoadingResult, KingfisherError>) -> Void)? = nil
        )
            -> DownloadTask
        {
            asked.withLock { $0.append(url) }
            return super.downloadImage(with: url, options: options, progressBlock: progressBlock, completionHandler: completionHandler)
        }
    }

    @Test func theManagerDownloadsThroughASubclassesOverride() async throws {
        try await withManagerSetup(name: "parity-subclass") { setup in
            let downloader = CountingDownloader(name: "counting")
            let url = setup.server.url("/image/photo.png")
            let result = try await setup.manager.retrieveImage(with: url, options: [.downloader(downloader)])
            #expect(result.cacheType == .none && result.image.pixelWidth == 190)
            #expect(downloader.asked.withLock { $0 } == [url])
        }
    }
}
