// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherRedis

/// ImageCache's shared level: two caches in different directories (two nodes) on one real
/// redis-server.
@Suite struct ImageCacheSharedStorageTests {
    /// A cache in its own directory under `directory`, with a shared level on `redis`.
    func node(_ name: String, in directory: URL, redis: RedisTestServer) throws -> ImageCache {
        let cache = try ImageCache(name: name, cacheDirectoryURL: directory.appendingPathComponent(name))
        let client = RedisClient(configuration: redis.clientConfiguration, logger: RecordingLogHandler.Lines().logger())
        cache.useSharedStorage(RedisStorage.Backend(config: RedisStorage.Config(client: client, prefix: "test:")))
        return cache
    }

    @Test func whatOneNodeStoresAnotherFindsAndKeepsOnItsDisk() async throws {
        try await withRedis { redis in
            try await withTemporaryDirectory { directory in
                let first = try node("first", in: directory, redis: redis)
                let second = try node("second", in: directory, redis: redis)
                let data = try Fixtures.data("photo.png")
                try await first.storeToDisk(data, forKey: "https://example.com/photo.png")
                // A store completes once the tiers below the disk have the data too.
                let name = first.hash(forKey: "https://example.com/photo.png")
                #expect(try await redis.cli("EXISTS", "test:\(name)").stdout.hasPrefix("1"))
                #expect(second.imageCachedType(forKey: "https://example.com/photo.png") == .none, "not on its own disk yet")
                let found = try await second.retrieveImage(forKey: "https://example.com/photo.png")
                #expect(found.cacheType == .disk && found.image?.pixelWidth == 190)
                #expect(second.diskStorage.isCached(forKey: "https://example.com/photo.png"), "kept on the second node's disk")
            }
        }
    }

    @Test func withRedisGoneAMissIsOnlyAMiss() async throws {
        try await withRedis { redis in
            try await withTemporaryDirectory { directory in
                let cache = try node("alone", in: directory, redis: redis)
                await redis.stop()
                let found = try await cache.retrieveImage(forKey: "https://example.com/none.png")
                #expect(found.image == nil)
                try await cache.storeToDisk(try Fixtures.data("photo.png"), forKey: "https://example.com/photo.png")
                #expect(try await cache.retrieveImage(forKey: "https://example.com/photo.png").cacheType == .disk)
            }
        }
    }

    @Test func anotherProcessingOnAnotherNodeUsesTheSharedOriginal() async throws {
        try await withRedis { redis in
            try await withTestHTTPServerAndDirectory { server, directory in
                let url = server.url("/image/photo.png")
                var processed: [Int] = []
                for (name, processor) in [
                    ("first", BlurImageProcessor(blurRadius: 2) as any ImageProcessor),
                    ("second", ResizingImageProcessor(referenceSize: CGSize(width: 20, height: 20))),
                ] {
                    let originals = try node("\(name)-originals", in: directory, redis: redis)
                    let cache = try ImageCache(name: name, cacheDirectoryURL: directory.appendingPathComponent(name))
                    let manager = KingfisherManager(downloader: ImageDownloader(name: name), cache: cache)
                    let result = try await manager.retrieveImage(
                        with: .network(KF.ImageResource(downloadURL: url)),
                        options: [
                            .processor(processor), .originalCache(originals), .cacheOriginalImage, .waitForCache,
                        ])
                    processed.append(result.image.pixelWidth)
                    // With `waitForCache`, the retrieval ends once the original is in Redis too.
                    let name = originals.hash(forKey: url.absoluteString)
                    #expect(try await redis.cli("EXISTS", "test:\(name)").stdout.hasPrefix("1"))
                }
                #expect(processed == [190, 20])
                #expect(server.requests("/image/photo.png") == 1, "the second node processed the first's original")
            }
        }
    }

    /// Two managers on two nodes, each with its own processing of one source, at once.
    func retrieveOnTwoNodes(_ url: URL, in directory: URL, redis: RedisTestServer) async throws -> [Result<Int, KingfisherError>] {
        let processors: [any ImageProcessor] = [
            BlurImageProcessor(blurRadius: 2),
            ResizingImageProcessor(referenceSize: CGSize(width: 20, height: 20)),
        ]
        return try await withThrowingTaskGroup(of: (Int, Result<Int, KingfisherError>).self) { group in
            for (index, processor) in processors.enumerated() {
                let originals = try node("originals-\(index)", in: directory, redis: redis)
                let cache = try ImageCache(name: "node-\(index)", cacheDirectoryURL: directory.appendingPathComponent("node-\(index)"))
                let manager = KingfisherManager(downloader: ImageDownloader(name: "node-\(index)"), cache: cache)
                group.addTask {
                    do {
                        let result = try await manager.retrieveImage(
                            with: .network(KF.ImageResource(downloadURL: url)),
                            options: [
                                .processor(processor), .originalCache(originals), .cacheOriginalImage,
                            ])
                        return (index, .success(result.image.pixelWidth))
                    } catch let error as KingfisherError {
                        return (index, .failure(error))
                    }
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }.sorted { $0.key < $1.key }.map(\.value)
        }
    }

    @Test func twoProcessingsOfANewSourceOnTwoNodesFetchItOnce() async throws {
        try await withRedis { redis in
            try await withTestHTTPServerAndDirectory { server, directory in
                // Slow enough that the second node asks while the first is fetching.
                let url = server.url("/slow/photo.png?chunk=1024&interval=20")
                let widths = try await retrieveOnTwoNodes(url, in: directory, redis: redis).map { try $0.get() }
                #expect(widths == [190, 20])
                #expect(server.requests("/slow/photo.png") == 1, "one node fetched; the other processed what it stored")
            }
        }
    }

    @Test func aFailedFetchLetsTheOtherNodeTryAndFail() async throws {
        try await withRedis { redis in
            try await withTestHTTPServerAndDirectory { server, directory in
                let results = try await retrieveOnTwoNodes(server.url("/status/404"), in: directory, redis: redis)
                for result in results {
                    guard case .failure(let error) = result, case .responseError(reason: .invalidHTTPStatusCode) = error else {
                        Issue.record("expected a 404 failure, got \(result)")
                        continue
                    }
                }
                #expect(server.requests("/status/404") == 2, "the waiter tried after the holder failed")
            }
        }
    }
}
