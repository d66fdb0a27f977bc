// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// Messages for every process that shares a Redis server, on one Pub/Sub channel: what one
/// node publishes, each node (itself included) hears through a subscription of its own.
///
/// The subscription is made when ``start(onMessage:)`` is called and made again whenever it closes (a
/// restarted server), after the client's retry interval. A message published while a process is
/// not subscribed does not reach it: what a message says must also be found another way in the
/// end (a version in Redis, an expiry).
package final class RedisBroadcast: Sendable {
    package let client: RedisClient
    /// The Pub/Sub channel.
    package let channel: String
    private let state = Locked(State())

    private struct State {
        var listening: Task<Void, Never>?
        var connection: RedisConnection?
        var subscribedWaiters: [CheckedContinuation<Void, Never>] = []
        var isShutDown = false
    }

    /// A broadcast on `channel` of `client`'s server; it hears nothing until started.
    package init(client: RedisClient, channel: String) {
        self.client = client
        self.channel = channel
    }

    /// Subscribes, and subscribes again each time the subscription closes, until ``shutdown()``;
    /// each message goes to `onMessage`, on a connection's event loop (it must not block).
    package func start(onMessage: @escaping @Sendable (String) -> Void) {
        state.withLock { state in
            guard state.listening == nil, !state.isShutDown else { return }
            state.listening = Task { [self] in await listen(onMessage: onMessage) }
        }
    }

    /// Tells every subscribed process `message`.
    /// - Throws: ``RedisError`` when the server cannot be reached or refuses.
    package func publish(_ message: String) async throws(RedisError) {
        _ = try await client.send(RESPCommand("PUBLISH", channel, message))
    }

    /// Returns once the subscription is made (at once if it is): a test's message published
    /// after this is heard.
    package func waitUntilSubscribed() async {
        await withCheckedContinuation { continuation in
            let subscribed = state.withLock { state in
                guard state.connection == nil, !state.isShutDown else { return true }
                state.subscribedWaiters.append(continuation)
                return false
            }
            if subscribed { continuation.resume() }
        }
    }

    /// Stops listening and closes the subscription.
    package func shutdown() {
        let (listening, connection, waiters) = state.withLock { state in
            state.isShutDown = true
            defer { state.subscribedWaiters = [] }
            return (state.listening, state.connection, state.subscribedWaiters)
        }
        listening?.cancel()
        connection?.close()
        for waiter in waiters { waiter.resume() }
    }

    private func listen(onMessage: @escaping @Sendable (String) -> Void) async {
        while !Task.isCancelled {
            if let connection = try? await RedisConnection.subscribed(to: channel, on: client, onMessage: onMessage) {
                let (kept, waiters) = state.withLock { state in
                    guard !state.isShutDown else { return (false, [CheckedContinuation<Void, Never>]()) }
                    state.connection = connection
                    defer { state.subscribedWaiters = [] }
                    return (true, state.subscribedWaiters)
                }
                guard kept else { return connection.close() }
                for waiter in waiters { waiter.resume() }
                await connection.closed()
                state.withLock { $0.connection = nil }
            }
            try? await Task.sleep(for: client.configuration.retryInterval)
        }
    }
}
