import Foundation
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

/// `.kf.setImage` on image targets and the `KF` builder, against the loopback server.
@MainActor
@Suite struct ImageTargetTests {
    let placeholder = KingfisherImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))

    /// Options that keep each test's cache and downloader to itself.
    func isolated(_ cache: ImageCache) -> KingfisherOptionsInfo {
        [.targetCache(cache), .downloader(ImageDownloader(name: "targets"))]
    }

    func withServer(_ body: (TestHTTPServer, ImageCache) async throws -> Void) async throws {
        let server = try await TestHTTPServer()
        let directory = TemporaryDirectory()
        let cache = try ImageCache(name: "targets", cacheDirectoryURL: directory.url)
        try await body(server, cache)
        await server.shutdown()
        directory.cleanUp()
    }

    /// Sets an image and waits for its completion handler.
    func set(_ view: TestImageView, _ url: URL?, placeholder: KFCrossPlatformImage? = nil,
             options: KingfisherOptionsInfo) async -> Result<RetrieveImageResult, KingfisherError> {
        await withCheckedContinuation { continuation in
            view.kf.setImage(with: url, placeholder: placeholder, options: options) { continuation.resume(returning: $0) }
        }
    }

    @Test func setImageShowsThePlaceholderThenTheImage() async throws {
        try await withServer { server, cache in
            let view = TestImageView()
            let url = server.url("/image/photo.png?delay=100")
            let done = Locked(false)
            let progressReports = Locked(0)
            view.kf.setImage(with: url, placeholder: placeholder, options: isolated(cache),
                             progressBlock: { _, _ in progressReports.withLock { $0 += 1 } }) { _ in done.withLock { $0 = true } }
            #expect(view.image === placeholder, "the placeholder while loading")
            #expect(view.kf.taskIdentifier != nil)
            for _ in 0..<250 where !done.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
            #expect(view.image?.pixelWidth == 190)
            for _ in 0..<50 where progressReports.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(progressReports.withLock { $0 } >= 1, "progress reaches the main actor")

            // A memory hit is set at once: the placeholder never shows.
            let other = TestImageView()
            other.kf.setImage(with: url, placeholder: placeholder, options: isolated(cache))
            #expect(other.image?.pixelWidth == 190)

            // Cached now: keepCurrentImageWhileLoading keeps the image instead of the placeholder.
            let shown = view.image
            view.kf.setImage(with: server.url("/image/photo.gif"), placeholder: placeholder,
                             options: isolated(cache) + [.keepCurrentImageWhileLoading])
            #expect(view.image === shown)
        }
    }

    @Test func aLaterRequestWinsAndTheEarlierIsNotCurrent() async throws {
        try await withServer { server, cache in
            let view = TestImageView()
            let slow = server.url("/image/photo.png?delay=300"), fast = server.url("/image/photo.gif")
            let early = Locked<Result<RetrieveImageResult, KingfisherError>?>(nil)
            view.kf.setImage(with: slow, options: isolated(cache)) { result in early.withLock { $0 = result } }
            let late = await set(view, fast, options: isolated(cache))
            #expect(try late.get().image.format == .GIF)
            for _ in 0..<250 where early.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
            guard case .failure(let error)? = early.withLock({ $0 }) else { Issue.record("the early request was set"); return }
            #expect(error.isNotCurrentTask)
            guard case .imageSettingError(reason: .notCurrentSourceTask(let result, _, let source)) = error else { return }
            #expect(result?.image.pixelWidth == 190 && source.url == slow, "the stale outcome travels with the error")
            #expect(view.image?.format == .GIF, "the stale image never lands")
        }
    }

    @Test func emptySourceFailureImageAndCancellation() async throws {
        try await withServer { server, cache in
            let view = TestImageView()
            view.image = KingfisherImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
            let empty = await set(view, nil, placeholder: placeholder, options: isolated(cache))
            guard case .failure(.imageSettingError(reason: .emptySource)) = empty else { Issue.record("\(empty)"); return }
            #expect(view.image === placeholder && view.kf.taskIdentifier == nil)

            let failure = KingfisherImage(width: 3, height: 3, pixels: [UInt8](repeating: 9, count: 36))
            let failed = await set(view, server.url("/status/404"), options: isolated(cache) + [.onFailureImage(failure)])
            #expect(failed.failureError?.isInvalidResponseStatusCode(404) == true)
            #expect(view.image === failure)

            let cancelled = Locked<KingfisherError?>(nil)
            // A request the server never answers, so it is running when cancelled on any machine.
            view.kf.setImage(with: server.url("/hang"), options: isolated(cache)) { result in
                cancelled.withLock { $0 = result.failureError }
            }
            for _ in 0..<(250 * SanitizerAllowance.time) where server.requests("/hang") == 0 {
                try await Task.sleep(for: .milliseconds(20))
            }
            view.kf.cancelDownloadTask()
            for _ in 0..<(250 * SanitizerAllowance.time) where cancelled.withLock({ $0 }) == nil {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(cancelled.withLock { $0 }?.isTaskCancelled == true)
        }
    }

    /// Kingfisher's README builder example, with `cacheOriginalImage` added; only the view type
    /// is this project's.
    @Test func kingfisherReadmeBuilderExampleRuns() async throws {
        try await withServer { server, cache in
            let imageView = TestImageView()
            let url = server.url("/image/photo.png")
            let lowResolutionURL = server.url("/image/photo.gif")
            let placeholderImage = placeholder
            let succeeded = Locked<RetrieveImageResult?>(nil)

            let processor = DownsamplingImageProcessor(size: imageView.bounds.size)
                         |> RoundCornerImageProcessor(cornerRadius: 20)
            // The README's `.fade(duration: 0.25).lowDataModeSource(.network(lowResolutionURL))`,
            // deprecated as no-ops here, go through Support/LinuxNoOps.swift.
            withLinuxNoOps(KF.url(url)
              .placeholder(placeholderImage)
              .setProcessor(processor)
              .loadDiskFileSynchronously()
              .cacheMemoryOnly()
              .cacheOriginalImage(), lowDataModeSource: .network(lowResolutionURL))
              .onProgress { receivedSize, totalSize in  }
              .onSuccess { result in succeeded.withLock { $0 = result } }
              .onFailure { error in }
              .targetCache(cache)
              .set(to: imageView)

            for _ in 0..<250 where succeeded.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
            let result = try #require(succeeded.withLock { $0 })
            #expect(imageView.image === result.image)
            #expect(result.image.pixelWidth == 100 && result.image.hasAlpha, "downsampled to the bounds, corners rounded")
            #expect(cache.imageCachedType(forKey: url.cacheKey, processorIdentifier: processor.identifier) == .memory,
                    "cacheMemoryOnly reached the manager")
        }
    }

    @Test func builderOptionsReachTheManagerAndImageLoadsWithoutATarget() async throws {
        try await withServer { server, cache in
            let url = server.url("/image/photo.png")
            let builder = KF.url(url).targetCache(cache).downsampling(size: CGSize(width: 50, height: 50)).blackWhite()
            let first = try await builder.image()
            #expect(first.image.pixelWidth == 50 && first.cacheType == .none)
            #expect(try await builder.image().cacheType == .memory)
            #expect(try await builder.forceRefresh().image().cacheType == .none)
            #expect(server.requests("/image/photo.png") == 2)
            await #expect { try await KF.url(nil).image() } throws: { ($0 as? KingfisherError)?.errorCode == 5001 }
            let data = try Fixtures.data("photo.gif")
            #expect(try await KF.data(data, cacheKey: "gif").targetCache(cache).image().image.format == .GIF)
        }
    }
}
