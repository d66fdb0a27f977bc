// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

@Suite(.timeLimit(.minutes(10))) struct ImageCacheTests {
    func makeCache(_ directory: URL) throws -> ImageCache {
        try ImageCache(name: "test", cacheDirectoryURL: directory)
    }

    /// A cache whose disk storage reads the time from `clock`, for expirations.
    func makeCache(_ directory: URL, clock: TestClock) -> ImageCache {
        let config = DiskStorage.Config(
            name: "test", sizeLimit: 0, directory: directory, cachePathBlock: ImageCache.defaultDiskCachePathClosure)
        return ImageCache(
            memoryStorage: MemoryStorage.Backend(config: MemoryStorage.Config()),
            diskStorage: DiskStorage.Backend(noThrowConfig: config, clock: clock.function))
    }

    @Test func directoryFollowsXDGLayout() throws {
        try withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            #expect(cache.diskStorage.directoryURL.path == directory.appendingPathComponent("kingfisher/test").path)
            let custom = try ImageCache(name: "x", cacheDirectoryURL: directory) { parent, name in
                parent.appendingPathComponent("custom-\(name)")
            }
            #expect(custom.diskStorage.directoryURL.lastPathComponent == "custom-x")
            #expect(ImageCache.default.diskStorage.directoryURL.path.hasSuffix("kingfisher/default"))
        }
    }

    @Test func aStoredImageIsInMemoryAtOnce() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            let image = makeTestImage(width: 20, height: 10)
            try await cache.store(image, forKey: "key")
            #expect(cache.imageCachedType(forKey: "key") == .memory)
            #expect(cache.retrieveImageInMemoryCache(forKey: "key") === image)
            #expect(try await cache.retrieveImage(forKey: "key").cacheType == .memory)
        }
    }

    @Test func aStoredImageIsOnDiskAfterwards() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            let image = makeTestImage(width: 20, height: 10)
            try await cache.store(image, forKey: "key")
            cache.clearMemoryCache()
            #expect(cache.imageCachedType(forKey: "key") == .disk)
            let result = try await cache.retrieveImage(forKey: "key")
            #expect(result.cacheType == .disk)
            #expect(maxDifference(try #require(result.image).pixels, image.pixels) == 0, "PNG round trip")
        }
    }

    @Test func aDiskHitIsPromotedToMemory() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            try await cache.store(makeTestImage(width: 20, height: 10), forKey: "key")
            cache.clearMemoryCache()
            _ = try await cache.retrieveImage(forKey: "key")
            #expect(cache.imageCachedType(forKey: "key") == .memory)
            #expect(try await cache.retrieveImage(forKey: "key").cacheType == .memory)
        }
    }

    @Test func aMissingKeyIsNoHit() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            let result = try await cache.retrieveImage(forKey: "other")
            #expect(result.cacheType == .none && result.image == nil)
        }
    }

    @Test func processorIdentifierIsPartOfTheKey() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            let image = makeTestImage(width: 8, height: 8)
            let processor = BlurImageProcessor(blurRadius: 2)
            try await cache.store(image, forKey: "key", options: KingfisherParsedOptionsInfo([.processor(processor)]))
            #expect(cache.isCached(forKey: "key", processorIdentifier: processor.identifier))
            #expect(!cache.isCached(forKey: "key"))
            #expect(cache.hash(forKey: "key", processorIdentifier: processor.identifier) == "key@\(processor.identifier)".kf.sha256)
            #expect(
                cache.cachePath(forKey: "key", processorIdentifier: processor.identifier)
                    == cache.diskStorage.directoryURL.appendingPathComponent("key@\(processor.identifier)".kf.sha256).path)
            #expect(cache.cacheFileURLIfOnDisk(forKey: "key", processorIdentifier: processor.identifier) != nil)
            #expect(cache.cacheFileURLIfOnDisk(forKey: "key") == nil)
        }
    }

    @Test func originalDataIsStoredWhenTheSerializerPrefersIt() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            let data = try Fixtures.data("gif_disposal_none.gif")
            let image = try KingfisherImage.decode(data: data)
            var serializer = DefaultCacheSerializer()
            serializer.preferCacheOriginalData = true
            try await cache.store(
                image, original: data, forKey: "gif", options: KingfisherParsedOptionsInfo([.cacheSerializer(serializer)]))
            #expect(try Data(contentsOf: URL(fileURLWithPath: cache.cachePath(forKey: "gif"))) == data)
            cache.clearMemoryCache()
            let back = try #require(try await cache.retrieveImage(forKey: "gif").image)
            #expect(back.frames.count == 3)
        }
    }

    @Test func aMemoryOnlyStoreNeverReachesTheDisk() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            try await cache.store(makeTestImage(width: 4, height: 4), forKey: "m", toDisk: false)
            cache.clearMemoryCache()
            #expect(cache.imageCachedType(forKey: "m") == .none)
        }
    }

    @Test func aDiskOnlyStoreIsReadFromDisk() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            try await cache.storeToDisk(try Fixtures.data("photo.png"), forKey: "d")
            #expect(cache.imageCachedType(forKey: "d") == .disk)
            let image = try #require(try await cache.retrieveImageInDiskCache(forKey: "d"))
            #expect(image.pixelWidth == 190)
        }
    }

    @Test func fromMemoryCacheOrRefreshMissesOnADiskOnlyImage() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            try await cache.storeToDisk(try Fixtures.data("photo.png"), forKey: "d")
            let fromMemoryOnly = try await cache.retrieveImage(
                forKey: "d", options: KingfisherParsedOptionsInfo([.fromMemoryCacheOrRefresh]))
            #expect(fromMemoryOnly.cacheType == .none)
        }
    }

    @Test func unserializableImagesReportAnError() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            struct NoData: CacheSerializer {
                func data(with image: KFCrossPlatformImage, original: Data?) -> Data? { nil }
            }
            await #expect {
                try await cache.store(
                    makeTestImage(width: 2, height: 2), forKey: "x",
                    options: KingfisherParsedOptionsInfo([.cacheSerializer(NoData())]))
            } throws: { error in
                guard case KingfisherError.cacheError(reason: .cannotSerializeImage) = error else { return false }
                return (error as? KingfisherError)?.errorCode == 3008
            }
            #expect(cache.imageCachedType(forKey: "x") == .memory, "memory storing cannot fail")
        }
    }

    @Test func removingAnImageRemovesItEverywhere() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            try await cache.store(makeTestImage(width: 4, height: 4), forKey: "k0")
            try await cache.removeImage(forKey: "k0")
            #expect(!cache.isCached(forKey: "k0"))
        }
    }

    @Test func removingFromMemoryOnlyKeepsTheDiskCopy() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            try await cache.store(makeTestImage(width: 4, height: 4), forKey: "k1")
            try await cache.removeImage(forKey: "k1", fromDisk: false)
            #expect(cache.imageCachedType(forKey: "k1") == .disk)
        }
    }

    @Test func cleaningRemovesExpiredFiles() async throws {
        try await withTemporaryDirectory { directory in
            let clock = TestClock()
            let cache = makeCache(directory, clock: clock)
            try await cache.store(makeTestImage(width: 4, height: 4), forKey: "kept")
            try await cache.storeToDisk(Data("x".utf8), forKey: "old", expiration: .seconds(10))
            clock.advance(11)
            await cache.cleanExpiredDiskCache()
            #expect(!cache.isCached(forKey: "old"))
            #expect(cache.isCached(forKey: "kept"))
        }
    }

    @Test func clearingEmptiesBothCaches() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            for i in 0..<3 { try await cache.store(makeTestImage(width: 4, height: 4), forKey: "k\(i)") }
            #expect(try await cache.diskStorageSize > 0)
            await cache.clearCache()
            #expect(try await cache.diskStorageSize == 0)
            #expect(cache.imageCachedType(forKey: "k2") == .none)
        }
    }

    @Test func cleaningPostsTheRemovedHashes() async throws {
        try await withTemporaryDirectory { directory in
            let clock = TestClock()
            let cache = makeCache(directory, clock: clock)
            try await cache.storeToDisk(Data("x".utf8), forKey: "soon", expiration: .seconds(10))
            clock.advance(11)
            let received = Locked<[String]?>(nil)
            // Other tests' caches clean too: the observer filters by this cache, as Kingfisher's
            // users do, which works only when the cache is the notification's object.
            let observer = NotificationCenter.default.addObserver(forName: .KingfisherDidCleanDiskCache, object: cache, queue: nil) {
                note in
                received.withLock { $0 = note.userInfo?[KingfisherDiskCacheCleanedHashKey] as? [String] }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            await cache.cleanExpiredDiskCache()
            #expect(received.withLock { $0 } == [cache.hash(forKey: "soon")])
        }
    }

    @Test func aMemoryHitIsAnsweredOnTheCallingThreadAtOnce() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            try await cache.store(makeTestImage(width: 2, height: 2), forKey: "m", toDisk: false)
            let caller = pthread_self()
            let answer = Locked<(CacheType, Bool)?>(nil)
            cache.imageCachedTypeAsync(forKey: "m", callbackQueue: .untouch) { type in
                answer.withLock { $0 = (type, pthread_equal(pthread_self(), caller) != 0) }
            }
            let answered = try #require(answer.withLock { $0 }, "answered before returning")
            #expect(answered.0 == .memory && answered.1)
            #expect(await cache.imageCachedTypeAsync(forKey: "absent") == .none)
        }
    }

    @Test func completionHandlersRunOnTheirQueue() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try makeCache(directory)
            let queue = DispatchQueue(label: "callback")
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            let onQueue: Bool = await withCheckedContinuation { continuation in
                cache.store(makeTestImage(width: 2, height: 2), forKey: "q", callbackQueue: .dispatch(queue)) { _ in
                    continuation.resume(returning: DispatchQueue.getSpecific(key: key) == true)
                }
            }
            #expect(onQueue)
            let hit: Bool = await withCheckedContinuation { continuation in
                cache.retrieveImage(forKey: "q", options: nil, callbackQueue: .dispatch(queue)) { result in
                    continuation.resume(returning: DispatchQueue.getSpecific(key: key) == true && (try? result.get().cacheType) == .memory)
                }
            }
            #expect(hit)
        }
    }

    @Test func anUnusableDirectoryFailsClearly() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let blocker = directory.appendingPathComponent("file")
            try Data().write(to: blocker)
            #expect(throws: KingfisherError.self) { _ = try ImageCache(name: "x", cacheDirectoryURL: blocker) }
            let config = DiskStorage.Config(name: "x", sizeLimit: 0, directory: blocker)
            let cache = ImageCache(
                memoryStorage: MemoryStorage.Backend(config: MemoryStorage.Config()),
                diskStorage: DiskStorage.Backend(noThrowConfig: config))
            await #expect {
                try await cache.store(makeTestImage(width: 2, height: 2), forKey: "a")
            } throws: { error in
                guard case KingfisherError.cacheError(reason: .diskStorageIsNotReady) = error else { return false }
                return true
            }
            #expect(cache.imageCachedType(forKey: "a") == .memory)
        }
    }
}
