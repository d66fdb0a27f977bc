// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import NIOCore

/// "This key is ready" messages between the processes sharing a Redis server, on one channel.
///
/// A process that finished the work for a key ``publish(_:)``es the key; a process waiting for
/// it ``wait(for:timeout:)``s. Messages can be lost (the subscription drops when Redis restarts
/// and is made again on the next wait), so a waiter must look for the value itself after the
/// wait, whether it was woken or timed out.
final class RedisNotifications: Sendable {
    let client: RedisClient
    /// The Pub/Sub channel.
    let channel: String
    private let state = Locked(State())
    /// Called with the key each time a wait has begun (subscribed, registered): tests wait for
    /// it instead of polling Redis.
    let waitStarted = CallbackSlot<String>()

    private struct State {
        var subscription: Task<RedisConnection, any Error>?
        var nextID = 0
        var waiters: [String: [Int: CheckedContinuation<Bool, Never>]] = [:]
        var timers: [Int: Task<Void, Never>] = [:]
    }

    init(client: RedisClient, channel: String) {
        self.client = client
        self.channel = channel
    }

    /// Tells every subscribed process that `key` is ready.
    func publish(_ key: String) async throws(RedisError) {
        _ = try await client.send(RESPCommand("PUBLISH", channel, key))
    }

    /// Waits until `key` is published or `timeout` passes; returns whether it was published.
    /// Without a subscription (Redis down) it only waits out the timeout.
    func wait(for key: String, timeout: TimeAmount) async -> Bool {
        await ensureSubscribed()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Registered with its timer in one step, before cancellation is looked at: a
                // timer firing at once, or a cancellation, finds both and leaves nothing behind.
                state.withLock { state in
                    state.waiters[key, default: [:]][id] = continuation
                    state.timers[id] = OffPoolExecutor.task { [self] in
                        try? await Task.sleep(for: .nanoseconds(timeout.nanoseconds))
                        resume(key, id: id, with: false)
                    }
                }
                if Task.isCancelled { resume(key, id: id, with: false) }
                waitStarted.call(key)
            }
        } onCancel: {
            resume(key, id: id, with: false)
        }
    }

    /// Stops waiting for every key and closes the subscription.
    func shutdown() {
        let (subscription, waiters, timers) = state.withLock { state in
            defer {
                state.subscription = nil
                state.waiters = [:]
                state.timers = [:]
            }
            return (state.subscription, state.waiters.values.flatMap(\.values), Array(state.timers.values))
        }
        for timer in timers { timer.cancel() }
        for waiter in waiters { waiter.resume(returning: false) }
        if let subscription { Task { try? await subscription.value.close() } }
    }

    private func resume(_ key: String, id: Int, with published: Bool) {
        let (continuation, timer) = state.withLock { state in
            let found = state.waiters[key]?.removeValue(forKey: id)
            if state.waiters[key]?.isEmpty == true { state.waiters[key] = nil }
            return (found, state.timers.removeValue(forKey: id))
        }
        timer?.cancel()
        continuation?.resume(returning: published)
    }

    private func deliver(_ key: String) {
        let (waiting, timers) = state.withLock { state in
            let waiting = state.waiters.removeValue(forKey: key) ?? [:]
            return (waiting, waiting.keys.compactMap { state.timers.removeValue(forKey: $0) })
        }
        for timer in timers { timer.cancel() }
        for waiter in waiting.values { waiter.resume(returning: true) }
    }

    /// Makes the subscription if there is none (or it closed); failures leave waits to their
    /// timeouts, and the next wait tries again.
    private func ensureSubscribed() async {
        // While the server is down every wait would try to connect; the client tries for them.
        guard client.isUp else { return }
        let task = state.withLock { state -> Task<RedisConnection, any Error> in
            if let subscription = state.subscription { return subscription }
            let subscription = Task { [channel, client] in
                try await RedisConnection.subscribed(to: channel, on: client) { [weak self] in self?.deliver($0) }
            }
            state.subscription = subscription
            return subscription
        }
        if let connection = try? await task.value, connection.isActive { return }
        state.withLock { state in
            if state.subscription == task { state.subscription = nil }
        }
    }
}
