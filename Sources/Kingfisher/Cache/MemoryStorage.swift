// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch
import Foundation

/// The memory half of the cache, as Kingfisher's `MemoryStorage`.
public enum MemoryStorage {
    /// A thread-safe, cost-limited LRU cache of values with an expiration per item.
    ///
    /// Entries live in one array threaded by a doubly linked list in recency order, plus a
    /// dictionary from key to slot: a hit, an insert and an eviction are O(1). All state sits in
    /// one lock. Expired items are not returned; they are removed by ``removeExpired()``,
    /// which a timer runs every ``Config/cleanInterval`` seconds, or when evicted.
    public final class Backend<T: CacheCostCalculable & Sendable>: Sendable {
        private let state: Locked<LRUList<T>>
        private let configuration: Locked<Config>
        private let cleanTimer: Locked<RepeatingTimer?> = Locked(nil)
        /// The current time; tests replace it to move time without sleeping.
        let clock: @Sendable () -> Date

        /// The configuration. Setting it applies the new limits at once.
        public var config: Config {
            get { configuration.withLock { $0 } }
            set {
                configuration.withLock { $0 = newValue }
                state.withLock { $0.trim(costLimit: newValue.totalCostLimit, countLimit: newValue.countLimit) }
                scheduleCleaning(every: newValue.cleanInterval)
            }
        }

        /// Creates a storage with `config`, starting its cleaning timer.
        public convenience init(config: Config) {
            self.init(config: config, clock: { Date() })
        }

        init(config: Config, clock: @escaping @Sendable () -> Date) {
            self.configuration = Locked(config)
            self.state = Locked(LRUList())
            self.clock = clock
            scheduleCleaning(every: config.cleanInterval)
        }

        /// Called after each timed cleaning: tests wait for it instead of sleeping.
        let afterTimedCleaning = CallbackSlot<Void>()

        private func scheduleCleaning(every interval: TimeInterval) {
            let timer = RepeatingTimer(interval: interval) { [weak self] in
                guard let self else { return }
                removeExpired()
                afterTimedCleaning.call(())
            }
            cleanTimer.withLock { $0 = timer }
        }

        /// Stores `value` for `key` with `expiration` (default: the config's). A value already
        /// expired, or costing more than the whole limit, is not stored (and replaces nothing).
        public func store(value: T, forKey key: String, expiration: StorageExpiration? = nil) {
            let config = self.config
            let lifetime = expiration ?? config.expiration
            let now = clock()
            let expirationDate = lifetime.estimatedExpirationSince(now)
            guard expirationDate > now else { return }
            let cost = value.cacheCost
            guard cost <= config.totalCostLimit else { return }
            state.withLock {
                $0.insert(key: key, value: value, cost: cost, expiration: lifetime, expirationDate: expirationDate)
                $0.trim(costLimit: config.totalCostLimit, countLimit: config.countLimit)
            }
        }

        /// The unexpired value for `key`, marked most recently used, its expiration extended as
        /// `extendingExpiration` says (default `.cacheTime`: the item's lifetime restarts now).
        public func value(forKey key: String, extendingExpiration: ExpirationExtending = .cacheTime) -> T? {
            let now = clock()
            return state.withLock { list in
                guard let slot = list.slot(forKey: key) else { return nil }
                guard list.expirationDate(at: slot) > now else { return nil }
                list.touch(slot)
                switch extendingExpiration {
                case .none: break
                case .cacheTime: list.setExpirationDate(list.expiration(at: slot).estimatedExpirationSince(now), at: slot)
                case .expirationTime(let expiration): list.setExpirationDate(expiration.estimatedExpirationSince(now), at: slot)
                }
                return list.value(at: slot)
            }
        }

        /// Whether an unexpired value is stored for `key`. Never extends the expiration or
        /// changes the recency order.
        public func isCached(forKey key: String) -> Bool {
            let now = clock()
            return state.withLock { list in
                guard let slot = list.slot(forKey: key) else { return false }
                return list.expirationDate(at: slot) > now
            }
        }

        /// Removes the value for `key`, if any.
        public func remove(forKey key: String) {
            state.withLock { _ = $0.remove(key: key) }
        }

        /// Removes every value.
        public func removeAll() {
            state.withLock { $0 = LRUList() }
        }

        /// Removes every expired value.
        public func removeExpired() {
            let now = clock()
            state.withLock { $0.removeExpired(now: now) }
        }

        /// The summed cost of the values held (expired ones included until removed).
        public var totalCost: Int { state.withLock { $0.totalCost } }

        /// ``totalCost``, by Kingfisher's name.
        public func totalCacheCost() -> Int { totalCost }

        /// How many values are held (expired ones included until removed).
        public var count: Int { state.withLock { $0.count } }

        /// The keys from least to most recently used; for tests and diagnostics.
        var keysByRecency: [String] { state.withLock { $0.keysByRecency } }
    }

    /// Settings of a ``Backend``.
    public struct Config: Sendable {
        /// The most total cost held; least recently used values are evicted past it. Default
        /// 25% of the memory available to the process (``defaultTotalCostLimit``).
        public var totalCostLimit: Int
        /// The most values held. Default `Int.max` (no limit).
        public var countLimit: Int = .max
        /// The expiration of stored values. Default `.seconds(300)`.
        public var expiration: StorageExpiration = .seconds(300)
        /// Seconds between automatic removals of expired values; 0 turns the timer off. Default 120.
        public var cleanInterval: TimeInterval

        /// Creates a config; `totalCostLimit` defaults to ``defaultTotalCostLimit``.
        public init(totalCostLimit: Int = Config.defaultTotalCostLimit, cleanInterval: TimeInterval = 120) {
            self.totalCostLimit = totalCostLimit
            self.cleanInterval = cleanInterval
        }

        /// 25% of the memory this process may use: its cgroup (v2 or v1) limit when one is set,
        /// else physical memory.
        public static var defaultTotalCostLimit: Int {
            Int(clamping: AvailableMemory.bytes() / 4)
        }
    }
}

/// One entry's bookkeeping in ``LRUList``. Not generic, so that the list's hot paths work on a
/// concrete array even where the value type is not specialised (calls from other modules).
struct LRUNode {
    var key: String
    var cost: Int
    var expiration: StorageExpiration
    var expirationDate: Date
    var previous: Int
    var next: Int
}

/// The recency list behind ``MemoryStorage/Backend``: slots in an array linked from least
/// (`head`) to most (`tail`) recently used, a free list of empty slots, and a key index. Values
/// live in a parallel array.
struct LRUList<T> {
    private var nodes: [LRUNode] = []
    private var values: [T?] = []
    private var index: [String: Int] = [:]
    private var free: [Int] = []
    private var head = -1
    private var tail = -1
    private(set) var totalCost = 0

    var count: Int { index.count }

    func slot(forKey key: String) -> Int? { index[key] }
    func value(at slot: Int) -> T { values[slot]! }
    func expiration(at slot: Int) -> StorageExpiration { nodes[slot].expiration }
    func expirationDate(at slot: Int) -> Date { nodes[slot].expirationDate }
    mutating func setExpirationDate(_ date: Date, at slot: Int) { nodes[slot].expirationDate = date }

    var keysByRecency: [String] {
        var keys: [String] = []
        var slot = head
        while slot >= 0 {
            keys.append(nodes[slot].key)
            slot = nodes[slot].next
        }
        return keys
    }

    mutating func insert(key: String, value: T, cost: Int, expiration: StorageExpiration, expirationDate: Date) {
        if let slot = index[key] {
            totalCost += cost - nodes[slot].cost
            values[slot] = value
            nodes[slot].cost = cost
            nodes[slot].expiration = expiration
            nodes[slot].expirationDate = expirationDate
            touch(slot)
            return
        }
        let node = LRUNode(
            key: key, cost: cost, expiration: expiration, expirationDate: expirationDate,
            previous: tail, next: -1)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            values[reused] = value
            slot = reused
        } else {
            nodes.append(node)
            values.append(value)
            slot = nodes.count - 1
        }
        if tail >= 0 { nodes[tail].next = slot } else { head = slot }
        tail = slot
        index[key] = slot
        totalCost += cost
    }

    /// Makes `slot` the most recently used.
    mutating func touch(_ slot: Int) {
        guard slot != tail else { return }
        unlink(slot)
        nodes[slot].previous = tail
        nodes[slot].next = -1
        if tail >= 0 { nodes[tail].next = slot } else { head = slot }
        tail = slot
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
    }

    @discardableResult
    mutating func remove(key: String) -> Bool {
        guard let slot = index.removeValue(forKey: key) else { return false }
        unlink(slot)
        totalCost -= nodes[slot].cost
        values[slot] = nil
        nodes[slot].cost = 0
        free.append(slot)
        return true
    }

    /// Evicts least recently used entries until within both limits.
    mutating func trim(costLimit: Int, countLimit: Int) {
        while head >= 0 && (totalCost > costLimit || index.count > countLimit) {
            remove(key: nodes[head].key)
        }
    }

    mutating func removeExpired(now: Date) {
        var slot = head
        while slot >= 0 {
            let next = nodes[slot].next
            if nodes[slot].expirationDate <= now { remove(key: nodes[slot].key) }
            slot = next
        }
    }
}
