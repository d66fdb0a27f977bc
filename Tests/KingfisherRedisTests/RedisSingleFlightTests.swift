// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import NIOCore
import Testing

@testable import Kingfisher
@testable import KingfisherRedis

/// One value made across processes: each `RedisSingleFlight` here stands for a node, with its
/// own client, on one real redis-server.
@Suite struct RedisSingleFlightTests {
    func node(_ redis: RedisTestServer, leaseDuration: Duration = .seconds(5)) -> RedisSingleFlight<Data> {
        let client = RedisClient(configuration: redis.clientConfiguration, logger: RecordingLogHandler.Lines().logger())
        return RedisSingleFlight(
            storage: RedisStorage.Backend(config: RedisStorage.Config(client: client, prefix: "test:")),
            leaseDuration: leaseDuration, pollInterval: .milliseconds(50))
    }

    @Test func tenNodesAskingAtOnceMakeTheValueOnce() async throws {
        try await withRedis { redis in
            let nodes = (0..<10).map { _ in node(redis) }
            defer {
                for node in nodes {
                    node.shutdown()
                    node.storage.config.client.shutdown()
                }
            }
            let makes = Locked(0)
            let waitingNodes = Locked<Set<Int>>([])
            let othersWaiting = AsyncStream<Void>.makeStream()
            for (index, node) in nodes.enumerated() {
                node.notifications.waitStarted.set { _ in
                    waitingNodes.withLock { _ = $0.insert(index) }
                    othersWaiting.continuation.yield()
                }
            }
            let outcomes = try await withThrowingTaskGroup(of: (Data, RedisSingleFlight<Data>.Outcome).self) { group in
                for node in nodes {
                    group.addTask {
                        try await node.value(forKey: "photo") {
                            makes.withLock { $0 += 1 }
                            // Made once every other node is waiting for it.
                            for await _ in othersWaiting.stream where waitingNodes.withLock({ $0.count }) >= nodes.count - 1 { break }
                            return Data("made".utf8)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(makes.withLock { $0 } == 1)
            #expect(outcomes.allSatisfy { $0.0 == Data("made".utf8) })
            // The others waited for it, or (a node whose task started late, as on a loaded
            // machine) found it stored already.
            #expect(outcomes.filter { $0.1 == .made }.count == 1 && outcomes.filter { $0.1 == .waited || $0.1 == .found }.count == 9)
            // Asked again, it is in Redis.
            let again = try await nodes[0].value(forKey: "photo") {
                Issue.record("made twice")
                return Data()
            }
            #expect(again.1 == .found)
        }
    }

    @Test func aHolderThatDiedDelaysOthersByItsLeaseOnly() async throws {
        try await withRedis { redis in
            let waiter = node(redis)
            defer {
                waiter.shutdown()
                waiter.storage.config.client.shutdown()
            }
            // A node took the lease for 1 s and died: it never renews, stores or publishes.
            let client = waiter.storage.config.client
            let dead = try #require(try await RedisLease.acquire("test:lease:photo", duration: .seconds(1), client: client))
            let holderAtMaking = Locked<String?>(nil)
            let (value, outcome) = try await waiter.value(forKey: "photo") {
                // Who holds the lease while this node makes the value: itself, once the dead
                // holder's lease has lapsed, never the dead holder.
                let holder = try? await client.send(RESPCommand("GET", "test:lease:photo")).bytes.map { String(buffer: $0) }
                holderAtMaking.withLock { $0 = holder }
                return Data("mine".utf8)
            }
            #expect(value == Data("mine".utf8) && outcome == .made)
            let holder = holderAtMaking.withLock { $0 }
            #expect(holder != nil && holder != dead.token, "made while the dead holder's lease held: \(String(describing: holder))")
        }
    }

    @Test func aHolderThatFailsLetsTheWaitersTryThemselves() async throws {
        try await withRedis { redis in
            let first = node(redis)
            let second = node(redis)
            defer {
                for node in [first, second] {
                    node.shutdown()
                    node.storage.config.client.shutdown()
                }
            }
            struct SourceFailed: Error {}
            let holding = AsyncStream<Void>.makeStream()
            // The holder fails once the second node waits for it.
            let secondWaits = AsyncStream<Void>.makeStream()
            second.notifications.waitStarted.set { _ in secondWaits.continuation.yield() }
            let failing = Task {
                try await first.value(forKey: "photo") {
                    holding.continuation.yield()
                    var waits = secondWaits.stream.makeAsyncIterator()
                    await waits.next()
                    throw SourceFailed()
                }
            }
            var started = holding.stream.makeAsyncIterator()
            await started.next()
            let (value, outcome) = try await second.value(forKey: "photo") { Data("second".utf8) }
            #expect(value == Data("second".utf8) && outcome == .made)
            await #expect(throws: SourceFailed.self) { _ = try await failing.value }
        }
    }

    @Test func withoutRedisEveryNodeMakesItsOwn() async throws {
        try await withRefusingPort { port in
            var configuration = RedisClient.Configuration()
            configuration.port = port
            let client = RedisClient(configuration: configuration, logger: RecordingLogHandler.Lines().logger())
            let flight = RedisSingleFlight<Data>(storage: RedisStorage.Backend(config: RedisStorage.Config(client: client)))
            defer {
                flight.shutdown()
                client.shutdown()
            }
            for _ in 0..<3 {
                let (value, outcome) = try await flight.value(forKey: "photo") { Data("local".utf8) }
                #expect(value == Data("local".utf8) && outcome == .made)
            }
        }
    }

    @Test func workThatKeepsItsOwnResultIsReturnedAtOnceAndToldWhenKept() async throws {
        try await withRedis { redis in
            let holder = node(redis)
            let waiter = node(redis)
            defer {
                for node in [holder, waiter] {
                    node.shutdown()
                    node.storage.config.client.shutdown()
                }
            }
            let client = holder.storage.config.client
            let (kept, keeping) = AsyncStream<Never>.makeStream()
            let find: @Sendable () async -> String? = {
                guard case .bulkString(let buffer?) = try? await client.send(RESPCommand("GET", "test:kept")) else { return nil }
                return String(buffer: buffer)
            }
            let (value, outcome) = try await holder.run(forKey: "kept", find: find) {
                ("made", kept: { for await _ in kept {} })
            }
            #expect(value == "made" && outcome == .made, "returned before its result is kept")
            // The lease is still held: a waiter waits until the work's result is in Redis. It
            // subscribes to the messages once it found the lease taken.
            let waits = AsyncStream<Void>.makeStream()
            waiter.notifications.waitStarted.set { _ in waits.continuation.yield() }
            let waiting = Task { try await waiter.run(forKey: "kept", find: find) { ("made again", kept: nil) } }
            var started = waits.stream.makeAsyncIterator()
            await started.next()
            _ = try await client.send(RESPCommand("SET", "test:kept", "stored"))
            keeping.finish()
            let waited = try await waiting.value
            #expect(waited.0 == "stored" && waited.1 == .waited)
        }
    }
}
