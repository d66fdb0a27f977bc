// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// ImagePrefetcher: what it skips, fails and completes, against the loopback server; its
/// concurrency limit and stopping on a ControllableTransport, which holds each download until
/// the test answers it. (A test's prefetch runs in an unstructured task: if the test fails
/// while it waits, the prefetch is left behind instead of the test hanging on it.)
@Suite(.timeLimit(.minutes(10))) struct ImagePrefetcherTests {
    /// Runs `body` with the loopback server, a cache in a temporary directory and a downloader.
    func withServer(_ body: (TestHTTPServer, ImageCache, ImageDownloader) async throws -> Void) async throws {
        try await withTestHTTPServerAndDirectory { server, directory in
            let cache = try ImageCache(name: "prefetch", cacheDirectoryURL: directory)
            try await body(server, cache, ImageDownloader(name: "prefetch"))
        }
    }

    /// Prefetches `urls` through the callback form, and returns what the completion handler got
    /// (skipped, failed, completed) and how many progress reports came first.
    func prefetch(
        _ urls: [URL], options: KingfisherOptionsInfo
    ) async throws
        -> (skipped: [URL?], failed: [URL?], completed: [URL?], progressReports: Int)
    {
        let progressReports = Locked(0)
        let finished = WaitableState<([any Resource], [any Resource], [any Resource])?>(nil)
        let prefetcher = ImagePrefetcher(
            urls: urls, options: options + [.callbackQueue(.untouch)],
            progressBlock: { _, _, _ in progressReports.withLock { $0 += 1 } },
            completionHandler: { skipped, failed, completed in finished.update { $0 = (skipped, failed, completed) } })
        prefetcher.start()
        let (skipped, failed, completed) = try await finished.waitForValue { $0 }
        return (skipped.map(\.downloadURL), failed.map(\.downloadURL), completed.map(\.downloadURL), progressReports.withLock { $0 })
    }

    @Test func cachedURLsAreSkippedWithoutARequest() async throws {
        try await withServer { server, cache, downloader in
            let cached = server.url("/image/photo.gif")
            try await cache.store(try KingfisherImage.decode(data: try Fixtures.data("photo.gif")), forKey: cached.cacheKey)
            let outcome = try await prefetch([cached], options: [.targetCache(cache), .downloader(downloader)])
            #expect(outcome.skipped == [cached] && outcome.failed.isEmpty && outcome.completed.isEmpty)
            #expect(server.requests("/image/photo.gif") == 0)
        }
    }

    @Test func aFailingURLIsReportedAsFailed() async throws {
        try await withServer { server, cache, downloader in
            let missing = server.url("/status/404")
            let outcome = try await prefetch([missing], options: [.targetCache(cache), .downloader(downloader)])
            #expect(outcome.failed == [missing] && outcome.skipped.isEmpty && outcome.completed.isEmpty)
            // The summary says why.
            let summary = await ImagePrefetcher(urls: [missing], options: [.targetCache(cache), .downloader(downloader)]).run()
            guard case .responseError(reason: .invalidHTTPStatusCode(let response))?? = summary.failureReasons.first else {
                Issue.record("\(summary.failureReasons)")
                return
            }
            #expect(response.statusCode == 404)
        }
    }

    @Test func anUncachedURLIsDownloadedIntoTheCache() async throws {
        try await withServer { server, cache, downloader in
            let fresh = server.url("/image/photo.png")
            let outcome = try await prefetch([fresh], options: [.targetCache(cache), .downloader(downloader)])
            #expect(outcome.completed == [fresh] && outcome.skipped.isEmpty && outcome.failed.isEmpty)
            #expect(cache.isCached(forKey: fresh.cacheKey))
        }
    }

    @Test func progressIsReportedOncePerItem() async throws {
        try await withServer { server, cache, downloader in
            let cached = server.url("/image/photo.gif")
            let missing = server.url("/status/404")
            let fresh = server.url("/image/photo.png")
            try await cache.store(try KingfisherImage.decode(data: try Fixtures.data("photo.gif")), forKey: cached.cacheKey)
            let outcome = try await prefetch([cached, missing, fresh], options: [.targetCache(cache), .downloader(downloader)])
            #expect(outcome.progressReports == 3)
        }
    }

    @Test func forceRefreshDownloadsCachedURLs() async throws {
        try await withServer { server, cache, downloader in
            let cached = server.url("/image/photo.gif")
            try await cache.store(try KingfisherImage.decode(data: try Fixtures.data("photo.gif")), forKey: cached.cacheKey)
            let again = await ImagePrefetcher(urls: [cached], options: [.targetCache(cache), .downloader(downloader), .forceRefresh]).run()
            #expect(again.completed.count == 1 && server.requests("/image/photo.gif") == 1)
        }
    }

    @Test func alsoPrefetchToMemoryLoadsDiskHits() async throws {
        try await withServer { server, cache, downloader in
            let url = server.url("/image/photo.png")
            try await cache.store(try KingfisherImage.decode(data: try Fixtures.data("photo.png")), forKey: url.cacheKey)
            cache.clearMemoryCache()
            let summary = await ImagePrefetcher(
                urls: [url], options: [.targetCache(cache), .downloader(downloader), .alsoPrefetchToMemory]
            ).run()
            #expect(summary.skipped.count == 1)
            #expect(cache.imageCachedType(forKey: url.cacheKey) == .memory)
            #expect(server.requests("/image/photo.png") == 0)
        }
    }

    @Test func tenThousandCachedURLsAreALoopNotTenThousandTasks() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try ImageCache(name: "prefetch", cacheDirectoryURL: directory)
            let image = KingfisherImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
            let urls = (0..<10_000).map { URL(string: "http://127.0.0.1:1/\($0).png")! }
            for url in urls { try await cache.store(image, forKey: url.cacheKey, toDisk: false) }
            let summary = await ImagePrefetcher(urls: urls, options: [.targetCache(cache), .downloader(ImageDownloader(name: "prefetch"))])
                .run()
            #expect(summary.skipped.count == 10_000 && summary.failed.isEmpty)
        }
    }

    @Test func anEmptyPrefetchFinishesAtOnce() async {
        let empty = await ImagePrefetcher(urls: []).run()
        #expect(empty.skipped.isEmpty && empty.completed.isEmpty && empty.failed.isEmpty)
    }

    // MARK: On a controllable transport

    /// Runs `body` with a transport, and options for a prefetcher downloading through it into a
    /// memory-only cache in a temporary directory.
    func withTransport(_ body: (ControllableTransport, KingfisherOptionsInfo) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let transport = ControllableTransport()
            let cache = try ImageCache(name: "prefetch", cacheDirectoryURL: directory)
            try await body(transport, [.targetCache(cache), .downloader(transport.makeDownloader()), .cacheMemoryOnly])
        }
    }

    func urls(_ count: Int) -> [URL] { (0..<count).map { URL(string: "https://example.com/\($0).png")! } }

    @Test func atMostMaxConcurrentDownloadsRunAtOnce() async throws {
        try await withTransport { transport, options in
            // Given a limit of two, for eight URLs
            let prefetcher = ImagePrefetcher(urls: urls(8), options: options)
            prefetcher.maxConcurrentDownloads = 2
            let photo = try Fixtures.data("photo.png")

            // When it runs
            let summary = Task { await prefetcher.run() }
            let first = try await transport.exchanges(count: 2)

            // Then two run; each answered download lets one more start
            for exchange in first { exchange.respond(withImage: photo) }
            for index in 2..<8 { try await transport.exchange(at: index).respond(withImage: photo) }
            let result = await summary.value
            #expect(result.completed.count == 8 && result.failed.isEmpty)
            #expect(transport.maxOpenCount == 2)
        }
    }

    @Test func stopReportsEveryUnfinishedItemAsFailed() async throws {
        try await withTransport { transport, options in
            // Given two of ten items running
            let prefetcher = ImagePrefetcher(urls: urls(10), options: options)
            prefetcher.maxConcurrentDownloads = 2
            let summary = Task { await prefetcher.run() }
            let running = try await transport.exchanges(count: 2)

            // When the prefetch stops
            prefetcher.stop()

            // Then every item is reported failed, and the running exchanges are cancelled
            let result = await summary.value
            #expect(result.failed.count == 10 && result.completed.isEmpty)
            // Eight never started (no reason); the two running ones were cancelled.
            #expect(result.failureReasons.count == 10 && result.failureReasons.filter { $0 == nil }.count == 8)
            for exchange in running { try await exchange.cancelled() }
        }
    }

    @Test func nothingStartsAfterStop() async throws {
        try await withTransport { transport, options in
            let prefetcher = ImagePrefetcher(urls: urls(10), options: options)
            prefetcher.maxConcurrentDownloads = 2
            let summary = Task { await prefetcher.run() }
            _ = try await transport.exchanges(count: 2)
            prefetcher.stop()
            _ = await summary.value
            #expect(transport.startedCount == 2)
        }
    }
}
