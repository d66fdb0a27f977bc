// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// A stand-in for a UI toolkit's image view: only the view type differs from Kingfisher's
/// examples.
@MainActor
final class TestImageView: KingfisherHasImageComponent {
    var image: KFCrossPlatformImage?
    var bounds = CGRect(x: 0, y: 0, width: 100, height: 80)
}

/// `.kf.setImage` on image targets and the `KF` builder. Loads whose timing matters (a
/// placeholder while loading, a later request overtaking an earlier one, cancelling) run on a
/// ControllableTransport; the rest against the loopback server.
@MainActor
@Suite(.timeLimit(.minutes(10))) struct ImageTargetTests {
    typealias Outcome = Result<RetrieveImageResult, KingfisherError>

    let placeholder = KingfisherImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))
    let photo: Data
    let url = URL(string: "https://example.com/photo.png")!

    init() throws {
        photo = try Fixtures.data("photo.png")
    }

    /// Runs `body` with the loopback server and a cache in a temporary directory.
    func withServer(_ body: (TestHTTPServer, ImageCache) async throws -> Void) async throws {
        try await withTestHTTPServerAndDirectory { server, directory in
            try await body(server, try ImageCache(name: "targets", cacheDirectoryURL: directory))
        }
    }

    /// Runs `body` with a transport and options that load through it into a cache in a
    /// temporary directory.
    func withTransport(_ body: (ControllableTransport, KingfisherOptionsInfo) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let transport = ControllableTransport()
            let cache = try ImageCache(name: "targets", cacheDirectoryURL: directory)
            try await body(transport, [.targetCache(cache), .downloader(transport.makeDownloader())])
        }
    }

    /// Options that keep a test's cache and downloader to itself.
    func isolated(_ cache: ImageCache) -> KingfisherOptionsInfo {
        [.targetCache(cache), .downloader(ImageDownloader(name: "targets"))]
    }

    /// Starts setting an image; the returned state receives the completion handler's outcome.
    func start(
        _ view: TestImageView, _ url: URL?, placeholder: KFCrossPlatformImage? = nil,
        options: KingfisherOptionsInfo
    ) -> WaitableState<Outcome?> {
        let outcome = WaitableState<Outcome?>(nil)
        view.kf.setImage(with: url, placeholder: placeholder, options: options) { result in outcome.update { $0 = result } }
        return outcome
    }

    /// Sets an image and waits for its completion handler.
    func set(
        _ view: TestImageView, _ url: URL?, placeholder: KFCrossPlatformImage? = nil,
        options: KingfisherOptionsInfo
    ) async throws -> Outcome {
        try await start(view, url, placeholder: placeholder, options: options).waitForValue { $0 }
    }

    // MARK: Placeholder and image

    @Test func thePlaceholderShowsWhileLoading() async throws {
        try await withTransport { transport, options in
            let view = TestImageView()
            let outcome = start(view, url, placeholder: placeholder, options: options)
            let exchange = try await transport.nextExchange()
            #expect(view.image === placeholder)
            #expect(view.kf.taskIdentifier != nil)
            exchange.respond(withImage: photo)
            _ = try await outcome.waitForValue { $0 }
        }
    }

    @Test func theLoadedImageReplacesThePlaceholder() async throws {
        try await withTransport { transport, options in
            let view = TestImageView()
            let outcome = start(view, url, placeholder: placeholder, options: options)
            try await transport.nextExchange().respond(withImage: photo)
            #expect(try await outcome.waitForValue { $0 }.get().image.pixelWidth == 190)
            #expect(view.image?.pixelWidth == 190)
        }
    }

    /// A target with no `image` property: Kingfisher's `KingfisherImageSettable`.
    @MainActor
    final class ImageSlot: KingfisherImageSettable {
        var shown: [(KFCrossPlatformImage?, Bool)] = []
        func setImage(_ image: KFCrossPlatformImage?, options: KingfisherParsedOptionsInfo) {
            shown.append((image, options.cacheMemoryOnly))
        }
        func getImage() -> KFCrossPlatformImage? { shown.last?.0 }
    }

    @Test func aSettableTargetIsShownThePlaceholderThenTheImage() async throws {
        try await withTransport { transport, options in
            let slot = ImageSlot()
            let outcome = WaitableState<Outcome?>(nil)
            slot.kf.setImage(with: url, placeholder: placeholder, options: options + [.cacheMemoryOnly]) { result in
                outcome.update { $0 = result }
            }
            try await transport.nextExchange().respond(withImage: photo)
            let loaded = try await outcome.waitForValue { $0 }.get().image
            #expect(slot.shown.count == 2 && slot.shown[0].0 === placeholder && slot.shown[1].0 === loaded)
            #expect(slot.shown.allSatisfy { $0.1 }, "each call receives the request's options")
        }
    }

    @Test func progressReachesTheMainActor() async throws {
        try await withTransport { transport, options in
            let view = TestImageView()
            let reports = WaitableState(0)
            view.kf.setImage(
                with: url, options: options,
                progressBlock: { _, _ in
                    MainActor.assertIsolated()
                    reports.update { $0 += 1 }
                })
            try await transport.nextExchange().respond(withImage: photo)
            try await reports.wait(until: { $0 >= 1 })
        }
    }

    @Test func aMemoryHitIsSetAtOnce() async throws {
        try await withTransport { transport, options in
            let first = start(TestImageView(), url, options: options)
            try await transport.nextExchange().respond(withImage: photo)
            _ = try await first.waitForValue { $0 }
            // The placeholder never shows: the image is there when setImage returns.
            let view = TestImageView()
            view.kf.setImage(with: url, placeholder: placeholder, options: options)
            #expect(view.image?.pixelWidth == 190)
        }
    }

    @Test func keepCurrentImageWhileLoadingKeepsTheShownImage() async throws {
        try await withTransport { transport, options in
            let view = TestImageView()
            let shown = KingfisherImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
            view.image = shown
            let outcome = start(view, url, placeholder: placeholder, options: options + [.keepCurrentImageWhileLoading])
            let exchange = try await transport.nextExchange()
            #expect(view.image === shown)
            exchange.respond(withImage: photo)
            _ = try await outcome.waitForValue { $0 }
        }
    }

    // MARK: Later requests

    @Test func aLaterRequestWins() async throws {
        try await withTransport { transport, options in
            // Given a view loading one image, then asked for another
            let view = TestImageView()
            let other = URL(string: "https://example.com/photo.gif")!
            let early = start(view, url, options: options)
            let late = start(view, other, options: options)

            // When the later one loads first, and the earlier one after it
            try await transport.exchange(for: other).respond(withImage: try Fixtures.data("photo.gif"), contentType: "image/gif")
            #expect(try await late.waitForValue { $0 }.get().image.format == .GIF)
            try await transport.exchange(for: url).respond(withImage: photo)
            _ = try await early.waitForValue { $0 }

            // Then the view keeps the later image
            #expect(view.image?.format == .GIF, "the stale image never lands")
        }
    }

    @Test func theEarlierRequestFailsAsNotCurrent() async throws {
        try await withTransport { transport, options in
            // Given a view loading one image, then asked for another
            let view = TestImageView()
            let other = URL(string: "https://example.com/photo.gif")!
            let early = start(view, url, options: options)
            _ = start(view, other, options: options)

            // When the earlier one loads
            try await transport.exchange(for: url).respond(withImage: photo)

            // Then it fails as not current, with its stale outcome attached
            guard case .failure(let error) = try await early.waitForValue({ $0 }) else {
                Issue.record("the early request was set")
                return
            }
            #expect(error.isNotCurrentTask)
            guard case .imageSettingError(reason: .notCurrentSourceTask(let result, _, let source)) = error else { return }
            #expect(result?.image.pixelWidth == 190 && source.url == url, "the stale outcome travels with the error")
        }
    }

    // MARK: Failures

    @Test func anEmptySourceFailsShowingThePlaceholder() async throws {
        let view = TestImageView()
        view.image = KingfisherImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
        let empty = try await set(view, nil, placeholder: placeholder, options: [])
        guard case .failure(.imageSettingError(reason: .emptySource)) = empty else {
            Issue.record("\(empty)")
            return
        }
        #expect(view.image === placeholder && view.kf.taskIdentifier == nil)
    }

    @Test func aFailureShowsTheFailureImage() async throws {
        try await withServer { server, cache in
            let view = TestImageView()
            let failure = KingfisherImage(width: 3, height: 3, pixels: [UInt8](repeating: 9, count: 36))
            let failed = try await set(view, server.url("/status/404"), options: isolated(cache) + [.onFailureImage(failure)])
            #expect(failed.failureError?.isInvalidResponseStatusCode(404) == true)
            #expect(view.image === failure)
        }
    }

    @Test func cancelDownloadTaskFailsTheRequestAsCancelled() async throws {
        try await withTransport { transport, options in
            // Given a view whose image is downloading
            let view = TestImageView()
            let outcome = start(view, url, options: options)
            let exchange = try await transport.nextExchange()

            // When its download is cancelled
            view.kf.cancelDownloadTask()

            // Then the request fails as cancelled, and the exchange stops
            #expect(try await outcome.waitForValue { $0 }.failureError?.isTaskCancelled == true)
            try await exchange.cancelled()
        }
    }

    // MARK: The KF builder

    /// Kingfisher's README builder example, with `cacheOriginalImage` added; only the view type
    /// is this project's.
    @Test func kingfisherReadmeBuilderExampleRuns() async throws {
        try await withServer { server, cache in
            let imageView = TestImageView()
            let url = server.url("/image/photo.png")
            let lowResolutionURL = server.url("/image/photo.gif")
            let placeholderImage = placeholder
            let succeeded = WaitableState<RetrieveImageResult?>(nil)

            let processor =
                DownsamplingImageProcessor(size: imageView.bounds.size)
                |> RoundCornerImageProcessor(cornerRadius: 20)
            // The README's `.fade(duration: 0.25).lowDataModeSource(.network(lowResolutionURL))`,
            // deprecated as no-ops here, go through Support/LinuxNoOps.swift.
            withLinuxNoOps(
                KF.url(url)
                    .placeholder(placeholderImage)
                    .setProcessor(processor)
                    .loadDiskFileSynchronously()
                    .cacheMemoryOnly()
                    .cacheOriginalImage(), lowDataModeSource: .network(lowResolutionURL)
            )
            .onProgress { receivedSize, totalSize in }
            .onSuccess { result in succeeded.update { $0 = result } }
            .onFailure { error in }
            .targetCache(cache)
            .set(to: imageView)

            let result = try await succeeded.waitForValue { $0 }
            #expect(imageView.image === result.image)
            #expect(result.image.pixelWidth == 100 && result.image.hasAlpha, "downsampled to the bounds, corners rounded")
            #expect(
                cache.imageCachedType(forKey: url.cacheKey, processorIdentifier: processor.identifier) == .memory,
                "cacheMemoryOnly reached the manager")
        }
    }

    @Test func aBuilderIsAReferenceAsKingfishers() async throws {
        try await withServer { server, cache in
            let imageView = TestImageView()
            let succeeded = WaitableState<RetrieveImageResult?>(nil)
            let builder = KF.url(server.url("/image/photo.png")).targetCache(cache)
            // Setters called for their effect alone, as Kingfisher code may.
            _ = builder.onSuccess { _ in Issue.record("a later onSuccess replaces this one") }
            _ = builder.onSuccess { result in succeeded.update { $0 = result } }
            _ = builder.downsampling(size: CGSize(width: 40, height: 40))
            builder.set(to: imageView)
            let result = try await succeeded.waitForValue { $0 }
            #expect(result.image.pixelWidth == 40 && imageView.image === result.image)
            #expect(builder.onSuccessDelegate.isSet && !builder.onFailureDelegate.isSet)
        }
    }

    @Test func builderOptionsReachTheManager() async throws {
        try await withServer { server, cache in
            let builder = KF.url(server.url("/image/photo.png")).targetCache(cache).downsampling(size: CGSize(width: 50, height: 50))
                .blackWhite()
            let first = try await builder.image()
            #expect(first.image.pixelWidth == 50 && first.cacheType == .none)
            #expect(try await builder.image().cacheType == .memory, "the target cache")
        }
    }

    @Test func builderForceRefreshDownloadsAgain() async throws {
        try await withServer { server, cache in
            let builder = KF.url(server.url("/image/photo.png")).targetCache(cache)
            _ = try await builder.image()
            #expect(try await builder.forceRefresh().image().cacheType == .none)
            #expect(server.requests("/image/photo.png") == 2)
        }
    }

    @Test func builderWithoutAURLFailsWithEmptySource() async throws {
        await #expect { try await KF.url(nil).image() } throws: { ($0 as? KingfisherError)?.errorCode == 5001 }
    }

    @Test func builderLoadsData() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try ImageCache(name: "targets", cacheDirectoryURL: directory)
            let data = try Fixtures.data("photo.gif")
            #expect(try await KF.data(data, cacheKey: "gif").targetCache(cache).image().image.format == .GIF)
        }
    }
}
