import Foundation
import Testing
@testable import Kingfisher

/// ImagePrefetcher against the loopback server.
@Suite struct ImagePrefetcherTests {
    func withServer(_ body: (TestHTTPServer, ImageCache, ImageDownloader) async throws -> Void) async throws {
        let server = try await TestHTTPServer()
        let directory = TemporaryDirectory()
        let cache = try ImageCache(name: "prefetch", cacheDirectoryURL: directory.url)
        try await body(server, cache, ImageDownloader(name: "prefetch"))
        await server.shutdown()
        directory.cleanUp()
    }

    @Test func skipsCachedFailsBadAndCompletesTheRest() async throws {
        try await withServer { server, cache, downloader in
            let cached = server.url("/image/photo.gif"), missing = server.url("/status/404"), fresh = server.url("/image/photo.png")
            try await cache.store(try KingfisherImage.decode(data: try Fixtures.data("photo.gif")), forKey: cached.cacheKey)
            let progressCalls = Locked(0)
            let finished = Locked<([any Resource], [any Resource], [any Resource])?>(nil)
            let prefetcher = ImagePrefetcher(urls: [cached, missing, fresh],
                                             options: [.targetCache(cache), .downloader(downloader), .callbackQueue(.untouch)],
                                             progressBlock: { _, _, _ in progressCalls.withLock { $0 += 1 } },
                                             completionHandler: { skipped, failed, completed in finished.withLock { $0 = (skipped, failed, completed) } })
            prefetcher.start()
            for _ in 0..<250 where finished.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
            let (skipped, failed, completed) = try #require(finished.withLock { $0 })
            #expect(skipped.map(\.downloadURL) == [cached] && failed.map(\.downloadURL) == [missing]
                    && completed.map(\.downloadURL) == [fresh])
            #expect(progressCalls.withLock { $0 } == 3)
            #expect(server.requests("/image/photo.gif") == 0 && cache.isCached(forKey: fresh.cacheKey))

            // Again, with forceRefresh: nothing is skipped.
            let again = await ImagePrefetcher(urls: [cached], options: [.targetCache(cache), .downloader(downloader), .forceRefresh]).run()
            #expect(again.completed.count == 1 && server.requests("/image/photo.gif") == 1)
        }
    }

    @Test func respectsTheConcurrencyLimit() async throws {
        try await withServer { server, cache, downloader in
            let urls = (0..<8).map { server.url("/image/photo.png?delay=80&n=\($0)") }
            let prefetcher = ImagePrefetcher(urls: urls, options: [.targetCache(cache), .downloader(downloader), .cacheMemoryOnly])
            prefetcher.maxConcurrentDownloads = 2
            let summary = await prefetcher.run()
            #expect(summary.completed.count == 8 && summary.failed.isEmpty)
            let most = server.stats.read { $0.maxDelayedInFlight }
            #expect(most <= 2 && most >= 1, "at most two at once, saw \(most)")
        }
    }

    @Test func stopReportsRunningAndPendingAsFailed() async throws {
        try await withServer { server, cache, downloader in
            // Requests the server never answers: the running two are still running at stop,
            // however slowly this machine gets there.
            let urls = (0..<10).map { server.url("/hang?n=\($0)") }
            let prefetcher = ImagePrefetcher(urls: urls, options: [.targetCache(cache), .downloader(downloader)])
            prefetcher.maxConcurrentDownloads = 2
            async let summary = prefetcher.run()
            for _ in 0..<(250 * SanitizerAllowance.time) where server.requests("/hang") < 2 {
                try await Task.sleep(for: .milliseconds(20))
            }
            prefetcher.stop()
            let result = await summary
            #expect(result.failed.count == 10 && result.completed.isEmpty)
            #expect(server.requests("/hang") == 2, "nothing new starts after stop")
        }
    }

    @Test func alsoPrefetchToMemoryLoadsDiskHits() async throws {
        try await withServer { server, cache, downloader in
            let url = server.url("/image/photo.png")
            try await cache.store(try KingfisherImage.decode(data: try Fixtures.data("photo.png")), forKey: url.cacheKey)
            cache.clearMemoryCache()
            let summary = await ImagePrefetcher(urls: [url], options: [.targetCache(cache), .downloader(downloader), .alsoPrefetchToMemory]).run()
            #expect(summary.skipped.count == 1)
            #expect(cache.imageCachedType(forKey: url.cacheKey) == .memory)
            #expect(server.requests("/image/photo.png") == 0)
        }
    }

    @Test func tenThousandCachedURLsAreALoopNotTenThousandTasks() async throws {
        try await withServer { server, cache, downloader in
            let image = KingfisherImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
            let urls = (0..<10_000).map { URL(string: "http://127.0.0.1:1/\($0).png")! }
            for url in urls { try await cache.store(image, forKey: url.cacheKey, toDisk: false) }
            let start = ContinuousClock.now
            let summary = await ImagePrefetcher(urls: urls, options: [.targetCache(cache), .downloader(downloader)]).run()
            #expect(summary.skipped.count == 10_000 && summary.failed.isEmpty)
            #expect(ContinuousClock.now - start < .seconds(10) * SanitizerAllowance.time)
            let empty = await ImagePrefetcher(urls: []).run()
            #expect(empty.skipped.isEmpty && empty.completed.isEmpty && empty.failed.isEmpty)
        }
    }
}
