// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import NIOCore

/// Work for a key done by one process at a time among all that share a Redis server, its
/// result shared through a ``RedisStorage/Backend``: N nodes asked for the same new key make
/// it once.
///
/// A process that finds no value takes the key's lease (`RedisLease`), makes the value,
/// stores it, and tells the others (Pub/Sub). The others wait: they are woken by the message
/// and also look again every ``pollInterval``, since a message can be lost. A holder that
/// fails releases the lease and tells the others, which then try themselves; a holder that
/// dies stops renewing, so its lease lapses within ``leaseDuration`` and another takes over.
/// With Redis down, every process makes the value itself: the tier speeds things up, it is
/// never needed for an answer.
public final class RedisSingleFlight<T: DataTransformable & Sendable>: CacheTierSingleFlight {
    /// How a value was had: found in Redis, made by another process while this one waited, or
    /// made here (holding the lease, or without Redis).
    public typealias Outcome = SingleFlightOutcome

    /// Where values are shared.
    public let storage: RedisStorage.Backend<T>
    /// How long a lease lives without renewal: the longest a dead holder delays the others.
    public let leaseDuration: Duration
    /// How long a process waits for others before making the value itself.
    public let maxWait: Duration
    /// How often a waiting process looks for the value without a message.
    public let pollInterval: Duration
    /// The "ready" messages of this prefix.
    let notifications: RedisNotifications

    /// - Parameters:
    ///   - storage: Where values are shared; leases and messages go to its server, under its prefix.
    ///   - leaseDuration: Default 5 s.
    ///   - maxWait: Default 30 s.
    ///   - pollInterval: Default 200 ms.
    public init(
        storage: RedisStorage.Backend<T>, leaseDuration: Duration = .seconds(5),
        maxWait: Duration = .seconds(30), pollInterval: Duration = .milliseconds(200)
    ) {
        self.storage = storage
        self.leaseDuration = leaseDuration
        self.maxWait = maxWait
        self.pollInterval = pollInterval
        notifications = RedisNotifications(client: storage.config.client, channel: storage.config.prefix + "ready")
    }

    /// The value for `key`: from Redis, from another process that makes it now, or from `make`.
    /// What `make` throws is thrown; Redis failures never are.
    public func value(forKey key: String, make: () async throws -> T) async throws -> (T, Outcome) {
        try await run(
            forKey: key, find: { try? await storage.value(forKey: key) },
            make: {
                let value = try await make()
                _ = try? await storage.store(value: value, forKey: key)
                return (value, nil)
            })
    }

    /// The general form of ``value(forKey:make:)``, for work that keeps its own result: `find`
    /// looks for what the work for `key` leaves in Redis (`nil`: not there, or Redis failed),
    /// and `make` does the work and returns its value with `kept`, which returns once what
    /// `find` looks for is in Redis (or failed to get there; `nil`: it is there already). The
    /// value is returned at once; the lease is held, and the others told, only once `kept`
    /// returned, so that a slow write delays the waiters, not this caller. What `make` throws is
    /// thrown; Redis failures never are.
    public func run<V: Sendable>(
        forKey key: String, find: () async -> V?,
        make: () async throws -> (V, kept: (@Sendable () async -> Void)?)
    ) async throws -> (V, Outcome) {
        // The waits for Redis and for the holder resume on OffPoolExecutor: a cooperative pool
        // held by other work must not run the wait past `maxWait` into a duplicate make.
        try await withTaskExecutorPreference(OffPoolExecutor.shared) {
            try await leaseOrWait(forKey: key, find: find, make: make)
        }
    }

    private func leaseOrWait<V: Sendable>(
        forKey key: String, find: () async -> V?,
        make: () async throws -> (V, kept: (@Sendable () async -> Void)?)
    ) async throws -> (V, Outcome) {
        let client = storage.config.client
        if let found = await find() { return (found, .found) }
        let leaseKey = storage.config.prefix + "lease:" + key
        let deadline = NIODeadline.now() + TimeAmount(maxWait)
        var waited = false
        while client.isUp, NIODeadline.now() < deadline {
            let lease: RedisLease?
            do {
                lease = try await RedisLease.acquire(leaseKey, duration: TimeAmount(leaseDuration), client: client)
            } catch {
                break
            }
            if let lease {
                // Another may have stored the value and released the lease since the first look.
                if let found = await find() {
                    try? await lease.release()
                    return (found, waited ? .waited : .found)
                }
                return (try await makeAndTell(key, holding: lease, make: make), .made)
            }
            waited = true
            _ = await notifications.wait(for: key, timeout: TimeAmount(pollInterval))
            try Task.checkCancellation()
            if let found = await find() { return (found, .waited) }
        }
        return (try await make().0, .made)
    }

    private func makeAndTell<V: Sendable>(
        _ key: String, holding lease: RedisLease,
        make: () async throws -> (V, kept: (@Sendable () async -> Void)?)
    ) async throws -> V {
        let renewing = lease.keepRenewed(for: TimeAmount(leaseDuration))
        let letGo: @Sendable () async -> Void = { [notifications] in
            renewing.cancel()
            try? await lease.release()
            // Woken waiters that find nothing (the work failed) try themselves.
            try? await notifications.publish(key)
        }
        let made: (V, kept: (@Sendable () async -> Void)?)
        do {
            made = try await make()
        } catch {
            await letGo()
            throw error
        }
        if let kept = made.kept {
            OffPoolExecutor.task {
                await kept()
                await letGo()
            }
        } else {
            await letGo()
        }
        return made.0
    }

    /// Closes the subscription; waits under way stop waiting.
    public func shutdown() {
        notifications.shutdown()
    }
}
