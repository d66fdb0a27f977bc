// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// A value with a chosen cost.
struct CostItem: CacheCostCalculable, Sendable, Equatable {
    var name: String
    var cacheCost: Int
}

@Suite(.timeLimit(.minutes(10))) struct MemoryStorageTests {
    func makeStorage(
        costLimit: Int = 100, countLimit: Int = .max, expiration: StorageExpiration = .seconds(300),
        clock: TestClock = TestClock()
    ) -> MemoryStorage.Backend<CostItem> {
        var config = MemoryStorage.Config(totalCostLimit: costLimit, cleanInterval: 0)
        config.countLimit = countLimit
        config.expiration = expiration
        return MemoryStorage.Backend(config: config, clock: clock.function)
    }

    @Test func evictsLeastRecentlyUsedPastTheCostLimit() {
        let storage = makeStorage(costLimit: 100)
        for name in ["a", "b", "c"] { storage.store(value: CostItem(name: name, cacheCost: 30), forKey: name) }
        _ = storage.value(forKey: "a")  // a is now the most recently used
        storage.store(value: CostItem(name: "d", cacheCost: 30), forKey: "d")
        #expect(storage.value(forKey: "b") == nil, "b was least recently used")
        #expect(storage.keysByRecency == ["c", "a", "d"])
        #expect(storage.totalCost == 90)
        storage.store(value: CostItem(name: "e", cacheCost: 70), forKey: "e")
        #expect(storage.keysByRecency == ["d", "e"])
        #expect(storage.totalCost == 100)
    }

    @Test func refusesAnItemCostingMoreThanTheLimit() {
        let storage = makeStorage(costLimit: 100)
        storage.store(value: CostItem(name: "a", cacheCost: 10), forKey: "a")
        storage.store(value: CostItem(name: "huge", cacheCost: 101), forKey: "huge")
        #expect(!storage.isCached(forKey: "huge"))
        #expect(storage.isCached(forKey: "a"))
    }

    @Test func countLimitEvictsOldest() {
        let storage = makeStorage(costLimit: 1000, countLimit: 2)
        for name in ["a", "b", "c"] { storage.store(value: CostItem(name: name, cacheCost: 1), forKey: name) }
        #expect(storage.keysByRecency == ["b", "c"])
        #expect(storage.count == 2)
    }

    @Test func replacingAKeyUpdatesCost() {
        let storage = makeStorage()
        storage.store(value: CostItem(name: "a", cacheCost: 10), forKey: "a")
        storage.store(value: CostItem(name: "a2", cacheCost: 40), forKey: "a")
        #expect(storage.totalCost == 40 && storage.count == 1)
        #expect(storage.value(forKey: "a")?.name == "a2")
    }

    @Test func anAccessRestartsTheExpiration() {
        let clock = TestClock()
        let storage = makeStorage(expiration: .seconds(10), clock: clock)
        storage.store(value: CostItem(name: "a", cacheCost: 1), forKey: "a")
        clock.advance(8)
        #expect(storage.value(forKey: "a") != nil, "cacheTime: a's 10 s start again now")
        clock.advance(5)  // 13 s after storing, 5 s after the access
        #expect(storage.value(forKey: "a") != nil)
    }

    @Test func anAccessNotExtendingLeavesTheExpiration() {
        let clock = TestClock()
        let storage = makeStorage(expiration: .seconds(10), clock: clock)
        storage.store(value: CostItem(name: "b", cacheCost: 1), forKey: "b")
        clock.advance(8)
        #expect(storage.value(forKey: "b", extendingExpiration: .none) != nil)
        #expect(storage.isCached(forKey: "b"))
        clock.advance(5)  // 13 s: b (not extended) expired
        #expect(storage.value(forKey: "b") == nil)
        #expect(!storage.isCached(forKey: "b"))
    }

    @Test func expiredItemsStayUntilRemoved() {
        let clock = TestClock()
        let storage = makeStorage(expiration: .seconds(10), clock: clock)
        storage.store(value: CostItem(name: "a", cacheCost: 1), forKey: "a")
        storage.store(value: CostItem(name: "b", cacheCost: 1), forKey: "b")
        storage.store(value: CostItem(name: "c", cacheCost: 1), forKey: "c", expiration: .seconds(100))
        clock.advance(11)
        #expect(storage.count == 3, "expired items stay until removed")
        storage.removeExpired()
        #expect(storage.count == 1)
        #expect(storage.isCached(forKey: "c"))
    }

    @Test func anAccessCanSetANewExpiration() {
        let clock = TestClock()
        let storage = makeStorage(expiration: .seconds(10), clock: clock)
        storage.store(value: CostItem(name: "c", cacheCost: 1), forKey: "c", expiration: .seconds(100))
        _ = storage.value(forKey: "c", extendingExpiration: .expirationTime(.seconds(1)))
        clock.advance(2)
        #expect(storage.value(forKey: "c") == nil, "the access set c to expire 1 s later")
    }

    @Test func isCachedNeverExtends() {
        let clock = TestClock()
        let storage = makeStorage(expiration: .seconds(10), clock: clock)
        storage.store(value: CostItem(name: "a", cacheCost: 1), forKey: "a")
        clock.advance(9)
        #expect(storage.isCached(forKey: "a"))
        clock.advance(2)
        #expect(!storage.isCached(forKey: "a"))
    }

    @Test func alreadyExpiredItemsAreNotStored() {
        let storage = makeStorage()
        storage.store(value: CostItem(name: "a", cacheCost: 1), forKey: "a", expiration: .expired)
        storage.store(value: CostItem(name: "b", cacheCost: 1), forKey: "b", expiration: .date(Date(timeIntervalSince1970: 10)))
        #expect(storage.count == 0)
        storage.store(value: CostItem(name: "c", cacheCost: 1), forKey: "c", expiration: .never)
        #expect(storage.isCached(forKey: "c"))
    }

    @Test func removeDropsOneItem() {
        let storage = makeStorage()
        for name in ["a", "b", "c"] { storage.store(value: CostItem(name: name, cacheCost: 5), forKey: name) }
        storage.remove(forKey: "b")
        #expect(storage.keysByRecency == ["a", "c"] && storage.totalCost == 10)
    }

    @Test func removeAllEmptiesTheStorageForReuse() {
        let storage = makeStorage()
        for name in ["a", "b", "c"] { storage.store(value: CostItem(name: name, cacheCost: 5), forKey: name) }
        storage.removeAll()
        #expect(storage.count == 0 && storage.totalCost == 0)
        storage.store(value: CostItem(name: "d", cacheCost: 5), forKey: "d")
        #expect(storage.keysByRecency == ["d"])
    }

    @Test func timerRemovesExpiredItems() async throws {
        var config = MemoryStorage.Config(totalCostLimit: 100, cleanInterval: 0.05)
        config.expiration = .seconds(10)
        let clock = TestClock()
        let storage = MemoryStorage.Backend<CostItem>(config: config, clock: clock.function)
        let cleanings = AsyncStream<Void>.makeStream()
        storage.afterTimedCleaning.set { _ in cleanings.continuation.yield() }
        storage.store(value: CostItem(name: "a", cacheCost: 1), forKey: "a")
        #expect(storage.count == 1)
        clock.advance(11)
        // The first timed cleaning after the item expired removes it.
        for await _ in cleanings.stream where storage.count == 0 { break }
        #expect(storage.count == 0)
    }

    @Test func concurrentUseKeepsTheBooksRight() async {
        let storage = makeStorage(costLimit: 500)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for i in 0..<2000 {
                        let key = "k\((i * 7 + worker) % 100)"
                        if i % 3 == 0 {
                            storage.store(value: CostItem(name: key, cacheCost: 10), forKey: key)
                        } else {
                            _ = storage.value(forKey: key)
                        }
                        if i % 50 == 0 { storage.remove(forKey: key) }
                    }
                }
            }
        }
        #expect(storage.totalCost <= 500)
        #expect(storage.totalCost == storage.count * 10)
        #expect(storage.keysByRecency.count == storage.count)
    }

    @Test func defaultCostLimitIsAQuarterOfAvailableMemory() {
        let limit = MemoryStorage.Config.defaultTotalCostLimit
        #expect(UInt64(limit) == AvailableMemory.bytes() / 4)
        #expect(limit > 0)
    }
}

@Suite(.timeLimit(.minutes(10))) struct AvailableMemoryTests {
    /// Runs `body` with the root of a fake /proc and /sys tree holding `files`.
    func withTree(_ files: [String: String], _ body: (URL) throws -> Void) throws {
        try withTemporaryDirectory { root in
            for (path, contents) in files {
                let url = root.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try contents.write(to: url, atomically: true, encoding: .utf8)
            }
            try body(root)
        }
    }

    @Test func readsACgroupV2Limit() throws {
        try withTree([
            "self": "0::/app.slice/web.service\n", "fs/memory.max": "max\n",
            "fs/app.slice/memory.max": "2147483648\n", "fs/app.slice/web.service/memory.max": "max\n",
        ]) { root in
            #expect(AvailableMemory.cgroupLimit(root: root.path + "/fs", selfCgroup: root.path + "/self") == 2_147_483_648)
        }
    }

    @Test func readsACgroupV1Limit() throws {
        try withTree([
            "self": "5:cpu:/\n4:memory:/docker/abc\n0::/\n",
            "fs/memory/docker/abc/memory.limit_in_bytes": "536870912\n",
        ]) { root in
            #expect(AvailableMemory.cgroupLimit(root: root.path + "/fs", selfCgroup: root.path + "/self") == 536_870_912)
            #expect(AvailableMemory.bytes(root: root.path + "/fs", selfCgroup: root.path + "/self") == 536_870_912)
        }
    }

    @Test func noLimitMeansPhysicalMemory() throws {
        try withTree(["self": "0::/\n", "fs/memory.max": "max\n"]) { root in
            #expect(AvailableMemory.cgroupLimit(root: root.path + "/fs", selfCgroup: root.path + "/self") == nil)
            #expect(
                AvailableMemory.bytes(root: root.path + "/fs", selfCgroup: root.path + "/self") == ProcessInfo.processInfo.physicalMemory)
        }
    }

    @Test func limitsParseAsNumbersOnly() {
        #expect(AvailableMemory.parseLimit("9223372036854771712") == 9_223_372_036_854_771_712)
        #expect(AvailableMemory.parseLimit("garbage") == nil)
    }
}
