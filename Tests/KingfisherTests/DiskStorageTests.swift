// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

@Suite(.timeLimit(.minutes(10))) struct DiskStorageTests {
    func makeStorage(
        _ directory: URL, clock: TestClock = TestClock(),
        configure: (inout DiskStorage.Config) -> Void = { _ in }
    ) -> DiskStorage.Backend<Data> {
        var config = DiskStorage.Config(name: "test", sizeLimit: 0, directory: directory)
        config.cleanInterval = 0
        configure(&config)
        return DiskStorage.Backend(noThrowConfig: config, clock: clock.function)
    }

    @Test func sha256MatchesKnownDigests() {
        #expect("hello".kf.sha256 == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
        #expect("".kf.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(String(repeating: "a", count: 1000).kf.sha256 == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func pathExtensionsFollowKingfisher() {
        #expect("https://a.com/b/c.png".kf.ext == "png")
        #expect("https://a.com/b/c.jpg@com.onevcat.Kingfisher.Blur(2.0)".kf.ext == "jpg")
        #expect("https://a.com/b/c.webp?size=1.5#x".kf.ext == "webp")
        #expect("https://a.com/b/image".kf.ext == nil)
        #expect("https://a.com/b.d/image".kf.ext == nil)
    }

    @Test func fileNamesAreHashedWithKingfishersExtensionRules() throws {
        try withTemporaryDirectory { directory in
            let key = "https://a.com/b/c.png"
            #expect(makeStorage(directory).cacheFileName(forKey: key) == key.kf.sha256)
            #expect(makeStorage(directory).cacheFileName(forKey: key, forcedExtension: "gif") == key.kf.sha256 + ".gif")
            #expect(makeStorage(directory) { $0.pathExtension = "dat" }.cacheFileName(forKey: key) == key.kf.sha256 + ".dat")
            #expect(makeStorage(directory) { $0.autoExtAfterHashedFileName = true }.cacheFileName(forKey: key) == key.kf.sha256 + ".png")
            let plain = makeStorage(directory) { $0.usesHashedFileName = false }
            #expect(plain.cacheFileName(forKey: "plain") == "plain")
            #expect(plain.cacheFileName(forKey: "https://a.com/b%20c.png") == "https:%2F%2Fa.com%2Fb%2520c.png")
            #expect(plain.cacheFileName(forKey: "..") == "%2E%2E%")
        }
    }

    @Test func aStoredValueReadsBack() throws {
        try withTemporaryDirectory { directory in
            let storage = makeStorage(directory)
            try storage.store(value: Data("one".utf8), forKey: "k1")
            #expect(try storage.value(forKey: "k1") == Data("one".utf8))
            #expect(storage.isCached(forKey: "k1"))
            #expect(try storage.value(forKey: "missing") == nil)
        }
    }

    @Test func storingAgainReplacesTheValue() throws {
        try withTemporaryDirectory { directory in
            let storage = makeStorage(directory)
            try storage.store(value: Data("one".utf8), forKey: "k1")
            try storage.store(value: Data("two".utf8), forKey: "k1")
            #expect(try storage.value(forKey: "k1") == Data("two".utf8))
        }
    }

    @Test func removingDeletesTheFile() throws {
        try withTemporaryDirectory { directory in
            let storage = makeStorage(directory)
            try storage.store(value: Data("one".utf8), forKey: "k1")
            try storage.remove(forKey: "k1")
            #expect(try storage.value(forKey: "k1") == nil)
            let names = try FileManager.default.contentsOfDirectory(atPath: storage.directoryURL.path)
            #expect(names.isEmpty, "no file, temporary or not, is left: \(names)")
        }
    }

    @Test func removingAMissingKeyIsFine() throws {
        try withTemporaryDirectory { directory in
            let storage = makeStorage(directory)
            try storage.remove(forKey: "never-stored")
            try storage.store(value: Data("one".utf8), forKey: "k1")
            try storage.remove(forKey: "k1")
            try storage.remove(forKey: "k1")
        }
    }

    @Test func datesLiveInTheFileTimes() throws {
        try withTemporaryDirectory { directory in
            let clock = TestClock()
            let storage = makeStorage(directory, clock: clock) { $0.expiration = .seconds(100) }
            try storage.store(value: Data("x".utf8), forKey: "k")
            let path = storage.cacheFileURL(forKey: "k").path
            let status = try #require(AtomicCacheFile.status(path))
            #expect(abs(status.expiration.timeIntervalSince(clock.date.addingTimeInterval(100))) < 0.001)
            #expect(abs(status.lastAccess.timeIntervalSince(clock.date)) < 0.001)
        }
    }

    @Test func anAccessRestartsTheLifetime() throws {
        try withTemporaryDirectory { directory in
            let clock = TestClock()
            let storage = makeStorage(directory, clock: clock) { $0.expiration = .seconds(100) }
            try storage.store(value: Data("x".utf8), forKey: "k")
            clock.advance(50)
            _ = try storage.value(forKey: "k")
            let status = try #require(AtomicCacheFile.status(storage.cacheFileURL(forKey: "k").path))
            #expect(abs(status.lastAccess.timeIntervalSince(clock.date)) < 0.001, "access recorded")
            #expect(abs(status.expiration.timeIntervalSince(clock.date.addingTimeInterval(100))) < 0.001, "lifetime restarted")
        }
    }

    @Test func anAccessRestartsTheLifetimeTheFileWasStoredWith() throws {
        try withTemporaryDirectory { directory in
            let clock = TestClock()
            let storage = makeStorage(directory, clock: clock) { $0.expiration = .days(7) }
            try storage.store(value: Data("x".utf8), forKey: "k", expiration: .seconds(30))
            for _ in 0..<2 {
                clock.advance(10)
                _ = try storage.value(forKey: "k")
                let status = try #require(AtomicCacheFile.status(storage.cacheFileURL(forKey: "k").path))
                #expect(
                    abs(status.expiration.timeIntervalSince(clock.date.addingTimeInterval(30))) < 0.001,
                    "its own 30 s, not the config's 7 days")
            }
        }
    }

    @Test func aReadNotExtendingKeepsTheLifetimeForTheNextExtension() throws {
        try withTemporaryDirectory { directory in
            let clock = TestClock()
            let storage = makeStorage(directory, clock: clock) { $0.expiration = .seconds(100) }
            try storage.store(value: Data("x".utf8), forKey: "k")
            clock.advance(50)
            _ = try storage.value(forKey: "k", extendingExpiration: .none)
            clock.advance(10)
            _ = try storage.value(forKey: "k")
            let status = try #require(AtomicCacheFile.status(storage.cacheFileURL(forKey: "k").path))
            #expect(abs(status.expiration.timeIntervalSince(clock.date.addingTimeInterval(100))) < 0.001, "still 100 s")
        }
    }

    @Test func anAccessNotExtendingLeavesTheExpiration() throws {
        try withTemporaryDirectory { directory in
            let clock = TestClock()
            let storage = makeStorage(directory, clock: clock) { $0.expiration = .seconds(100) }
            try storage.store(value: Data("x".utf8), forKey: "k")
            clock.advance(50)
            _ = try storage.value(forKey: "k", extendingExpiration: .none)
            let status = try #require(AtomicCacheFile.status(storage.cacheFileURL(forKey: "k").path))
            #expect(abs(status.expiration.timeIntervalSince(clock.date.addingTimeInterval(50))) < 0.001, "not extended")
        }
    }

    @Test func neverExpiringFilesGetTheLatestDate() throws {
        try withTemporaryDirectory { directory in
            let storage = makeStorage(directory)
            try storage.store(value: Data("y".utf8), forKey: "forever", expiration: .never)
            #expect(
                AtomicCacheFile.status(storage.cacheFileURL(forKey: "forever").path)?.expiration
                    == DiskStorage.Backend<Data>.latestExpirationDate)
        }
    }

    @Test func expiredFilesAreNotReturned() throws {
        try withTemporaryDirectory { directory in
            let clock = TestClock()
            let storage = makeStorage(directory, clock: clock) { $0.expiration = .seconds(10) }
            try storage.store(value: Data("a".utf8), forKey: "short")
            try storage.store(value: Data("b".utf8), forKey: "long", expiration: .days(1))
            try storage.store(value: Data("c".utf8), forKey: "gone", expiration: .expired)
            #expect(!storage.isCached(forKey: "gone"))
            clock.advance(11)
            #expect(try storage.value(forKey: "short") == nil)
            #expect(!storage.isCached(forKey: "short"))
            #expect(storage.isCached(forKey: "long"))
        }
    }

    @Test func cleaningRemovesExpiredFiles() throws {
        try withTemporaryDirectory { directory in
            let clock = TestClock()
            let storage = makeStorage(directory, clock: clock) { $0.expiration = .seconds(10) }
            try storage.store(value: Data("a".utf8), forKey: "short")
            try storage.store(value: Data("b".utf8), forKey: "long", expiration: .days(1))
            clock.advance(11)
            let removed = try storage.removeExpiredValues()
            #expect(removed.map(\.lastPathComponent) == [storage.cacheFileName(forKey: "short")])
            #expect(try storage.statistics().files == 1)
        }
    }

    @Test func aWritePastTheSizeLimitRemovesLeastRecentlyAccessedDownToHalf() throws {
        try withTemporaryDirectory { directory in
            let clock = TestClock()
            let storage = makeStorage(directory, clock: clock) { $0.sizeLimit = 1000 }
            for i in 0..<6 {
                try storage.store(value: Data(repeating: UInt8(i), count: 150), forKey: "k\(i)")
                clock.advance(1)
            }
            _ = try storage.value(forKey: "k0")  // k0 becomes the most recently accessed
            #expect(try storage.totalSize() == 900)
            try storage.store(value: Data(repeating: 6, count: 150), forKey: "k6")
            #expect(try storage.totalSize() == 450, "1050 bytes passed the limit: down to half of it")
            #expect(!(1...4).contains { storage.isCached(forKey: "k\($0)") })
            #expect(storage.isCached(forKey: "k0") && storage.isCached(forKey: "k5") && storage.isCached(forKey: "k6"))
            for i in 7..<40 {
                try storage.store(value: Data(repeating: UInt8(i), count: 150), forKey: "k\(i)")
                #expect(try storage.totalSize() <= 1000, "never past the limit once a write is done")
            }
        }
    }

    @Test func sizeCleaningRemovesWhatOthersWrotePastTheLimit() throws {
        try withTemporaryDirectory { directory in
            let clock = TestClock()
            let storage = makeStorage(directory, clock: clock) { $0.sizeLimit = 1000 }
            // Another process's storage, without a limit, fills the same directory.
            let other = makeStorage(directory, clock: clock) { $0.sizeLimit = 0 }
            for i in 0..<10 {
                try other.store(value: Data(repeating: UInt8(i), count: 150), forKey: "k\(i)")
                clock.advance(1)
            }
            _ = try storage.value(forKey: "k0")
            #expect(try storage.totalSize() == 1500)
            let removed = Set(try storage.removeSizeExceededValues().map(\.lastPathComponent))
            #expect(try storage.totalSize() == 450)
            #expect(removed == Set((1...7).map { storage.cacheFileName(forKey: "k\($0)") }))
            #expect(storage.isCached(forKey: "k0") && storage.isCached(forKey: "k9"))
            #expect(try storage.removeSizeExceededValues().isEmpty, "under the limit: nothing to do")
        }
    }

    @Test func aDeletedDirectoryIsRecreatedOnTheNextWrite() throws {
        try withTemporaryDirectory { directory in
            let storage = makeStorage(directory)
            try storage.store(value: Data("a".utf8), forKey: "a")
            try FileManager.default.removeItem(at: directory)
            #expect(try storage.value(forKey: "a") == nil)
            try storage.store(value: Data("b".utf8), forKey: "b")
            #expect(try storage.value(forKey: "b") == Data("b".utf8))
        }
    }

    /// A regular file where the parent directory should be: creating the directory fails even
    /// for root.
    func withBlockedDirectory(_ body: (DiskStorage.Config) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let blocker = directory.appendingPathComponent("file")
            try Data("x".utf8).write(to: blocker)
            var config = DiskStorage.Config(name: "test", sizeLimit: 0, directory: blocker)
            config.cleanInterval = 0
            try body(config)
        }
    }

    @Test func anUncreatableDirectoryFailsNamingItsPath() throws {
        try withBlockedDirectory { config in
            #expect {
                _ = try DiskStorage.Backend<Data>(config: config)
            } throws: { error in
                guard case KingfisherError.cacheError(reason: .cannotCreateDirectory(let path, _)) = error else { return false }
                return path == config.directory!.appendingPathComponent("test").path
            }
        }
    }

    @Test func aStorageWithoutItsDirectoryIsNotReady() throws {
        try withBlockedDirectory { config in
            let storage = DiskStorage.Backend<Data>(noThrowConfig: config)
            #expect {
                try storage.store(value: Data("a".utf8), forKey: "a")
            } throws: { error in
                guard case KingfisherError.cacheError(reason: .diskStorageIsNotReady) = error else { return false }
                return true
            }
            #expect(throws: KingfisherError.self) { _ = try storage.value(forKey: "a") }
            #expect(!storage.isCached(forKey: "a"))
        }
    }

    @Test func leftoverTemporaryFilesAreCleanedWhenStale() throws {
        try withTemporaryDirectory { directory in
            let clock = TestClock()
            let storage = makeStorage(directory, clock: clock) { $0.temporaryFileLifetime = 60 }
            try storage.store(value: Data("a".utf8), forKey: "a", expiration: .never)
            let leftover = storage.directoryURL.appendingPathComponent(".\(storage.cacheFileName(forKey: "b")).123.456.kftmp")
            try Data("partial".utf8).write(to: leftover)
            let foreignHidden = storage.directoryURL.appendingPathComponent(".keep")
            try Data().write(to: foreignHidden)
            #expect(try storage.statistics().files == 1, "temporary and hidden files are not cached files")
            #expect(
                try storage.removeExpiredValues(referenceDate: Date()).isEmpty, "a fresh temporary file may belong to a write in flight")
            let removed = try storage.removeExpiredValues(referenceDate: Date().addingTimeInterval(120))
            #expect(removed.map(\.lastPathComponent).contains(leftover.lastPathComponent))
            #expect(FileManager.default.fileExists(atPath: foreignHidden.path), "other hidden files are left alone")
        }
    }

    @Test func cleansItselfOnItsInterval() async throws {
        try await withTemporaryDirectory { directory in
            var config = DiskStorage.Config(name: "timer", sizeLimit: 0, directory: directory)
            config.cleanInterval = 0.05
            let storage = DiskStorage.Backend<Data>(noThrowConfig: config)
            let cleaned = WaitableState<[String]>([])
            storage.onClean.set { names in cleaned.update { $0 += names } }
            try storage.store(value: Data("x".utf8), forKey: "soon", expiration: .seconds(0.02))
            try storage.store(value: Data("y".utf8), forKey: "later", expiration: .days(1))
            let names = try await cleaned.wait(until: { !$0.isEmpty })
            #expect(names == [storage.cacheFileName(forKey: "soon")])
            #expect(storage.isCached(forKey: "later"))
        }
    }

    @Test func removeAllKeepsTheDirectory() throws {
        try withTemporaryDirectory { directory in
            let storage = makeStorage(directory)
            for i in 0..<5 { try storage.store(value: Data([UInt8(i)]), forKey: "k\(i)") }
            try storage.removeAll()
            #expect(try storage.statistics().files == 0)
            try storage.store(value: Data("again".utf8), forKey: "k")
            #expect(storage.isCached(forKey: "k"))
        }
    }
}
