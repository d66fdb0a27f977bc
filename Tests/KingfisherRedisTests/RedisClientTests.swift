// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import NIOCore
import NIOPosix
import Testing

@testable import Kingfisher
@testable import KingfisherRedis

/// The RESP client against a real redis-server on loopback: commands, pipelining, a server
/// that is down, restarted or silent, leases and notifications.
@Suite struct RedisClientTests {
    @Test func commandsGetTheirRepliesInOrderThroughThePipeline() async throws {
        try await withRedis { redis in
            let client = RedisClient(configuration: redis.clientConfiguration)
            defer { client.shutdown() }
            #expect(try await client.send(RESPCommand("SET", "greeting", "hello")) == .simpleString("OK"))
            #expect(try await client.send(RESPCommand("GET", "greeting")).bytes.map { String(buffer: $0) } == "hello")
            #expect(try await client.send(RESPCommand("GET", "missing")) == .bulkString(nil))
            // 200 commands in one write come back in order.
            let sets = (0..<100).map { RESPCommand("SET", "k\($0)", "v\($0)") }
            let gets = (0..<100).map { RESPCommand("GET", "k\($0)") }
            let replies = try await client.send(sets + gets)
            #expect(replies[..<100].allSatisfy { $0 == .simpleString("OK") })
            #expect(replies[100...].map { $0.bytes.map { String(buffer: $0) } ?? "" } == (0..<100).map { "v\($0)" })
            // An error reply belongs to its command.
            await #expect { try await client.send(RESPCommand("INCR", "greeting")) } throws: { error in
                let error = try #require(error as? RedisError)
                return error.kind == .refused && error.description.hasPrefix("redis at 127.0.0.1:\(redis.port) refused INCR: ERR")
            }
        }
    }

    @Test func concurrentCommandsShareTheConnections() async throws {
        try await withRedis { redis in
            let client = RedisClient(configuration: redis.clientConfiguration)
            defer { client.shutdown() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        _ = try await client.send(RESPCommand("SET", "c\(index)", "\(index)"))
                        let value = try await client.send(RESPCommand("GET", "c\(index)"))
                        #expect(value.bytes.map { String(buffer: $0) } == "\(index)")
                    }
                }
                try await group.waitForAll()
            }
            let clients = try await redis.cli("CLIENT", "LIST").stdout.split(separator: "\n").count
            #expect(clients <= client.configuration.connections + 1, "two pooled connections and redis-cli")
        }
    }

    @Test func aServerThatIsNotThereFailsFastAfterTheFirstTry() async throws {
        try await withRefusingPort { port in
            let lines = RecordingLogHandler.Lines()
            var configuration = RedisClient.Configuration()
            configuration.port = port
            configuration.retryInterval = .seconds(60)
            let client = RedisClient(configuration: configuration, logger: lines.logger())
            defer { client.shutdown() }
            for attempt in 0..<5 {
                await #expect { try await client.send(RESPCommand("GET", "k")) } throws: { error in
                    let error = try #require(error as? RedisError)
                    let expected =
                        attempt == 0
                        ? "cannot connect to redis at 127.0.0.1:\(port): connection refused"
                        : "redis at 127.0.0.1:\(port) is down: cannot connect to redis at 127.0.0.1:\(port): connection refused"
                    return error.kind == .unreachable && error.description == expected
                }
            }
            #expect(!client.isUp)
            #expect(
                lines.messages == [
                    "cannot connect to redis at 127.0.0.1:\(port): connection refused; carrying on without it, trying again every 60.0 s"
                ],
                "one line for the change, none per command")
        }
    }

    @Test func aRestartedServerIsUsedAgainAndTheChangesAreLoggedOnce() async throws {
        try await withRedis { redis in
            let lines = RecordingLogHandler.Lines()
            // Connections are tried again at once, so the restart is used by the next command.
            var configuration = redis.clientConfiguration
            configuration.retryInterval = .zero
            let client = RedisClient(configuration: configuration, logger: lines.logger())
            defer { client.shutdown() }
            _ = try await client.send(RESPCommand("SET", "k", "v"))
            await redis.stop()
            for _ in 0..<3 {
                await #expect(throws: RedisError.self) { try await client.send(RESPCommand("GET", "k")) }
            }
            #expect(!client.isUp)
            try await redis.start()
            // Each connection slot reconnects on its next command: one PING per slot at most.
            var answered = false
            for _ in 0..<configuration.connections where !answered {
                answered = (try? await client.send(RESPCommand("PING"))) == .simpleString("PONG")
            }
            #expect(answered && client.isUp)
            let messages = lines.messages
            #expect(messages.count == 2, "\(messages)")
            #expect(messages.first?.contains("redis at 127.0.0.1:\(redis.port)") == true)
            #expect(messages.last?.hasPrefix("redis at 127.0.0.1:\(redis.port) answers again after") == true)
        }
    }

    @Test func aServerThatNeverAnswersTimesOutNamingTheCommand() async throws {
        try await withSilentPort { port in
            var configuration = RedisClient.Configuration()
            configuration.port = port
            configuration.commandTimeout = .milliseconds(200)
            let client = RedisClient(configuration: configuration, logger: RecordingLogHandler.Lines().logger())
            defer { client.shutdown() }
            await #expect { try await client.send(RESPCommand("GET", "k")) } throws: { error in
                let error = try #require(error as? RedisError)
                return error.kind == .timedOut && error.description == "redis at 127.0.0.1:\(port) did not answer GET within 0.2 s"
            }
            #expect(!client.isUp, "a timeout counts as down: the next commands do not each wait")
        }
    }

    @Test func aCommandOnAClosedConnectionFailsInsteadOfWaiting() async throws {
        try await withRedis { redis in
            let connection = try await RedisConnection.connect(
                host: "127.0.0.1", port: redis.port, timeout: .seconds(5),
                group: MultiThreadedEventLoopGroup.singleton)
            #expect(try await connection.send(RESPCommand("PING"), timeout: .seconds(60)) == .simpleString("PONG"))
            connection.close()
            try await connection.channel.closeFuture.get()
            // The handler is gone with the channel: the write itself must fail the command
            // (the 60 s deadline would otherwise be the only way out).
            await #expect { _ = try await connection.send(RESPCommand("PING"), timeout: .seconds(60)) } throws: { error in
                (error as? RedisError)?.kind == .unreachable
            }
        }
    }

    @Test func aURLGivesTheHostAndPort() throws {
        let configuration = try RedisClient.Configuration(url: URL(string: "redis://cache.internal:6380")!)
        #expect(configuration.address == "cache.internal:6380")
        #expect(try RedisClient.Configuration(url: URL(string: "redis://[::1]")!).address == "::1:6379")
        for bad in ["http://h:1", "redis://", "redis://h/2", "redis://u:p@h"] {
            #expect(throws: RedisError.self, "\(bad)") { _ = try RedisClient.Configuration(url: URL(string: bad)!) }
        }
    }

    // MARK: Leases

    @Test func aLeaseHasOneHolderUntilReleased() async throws {
        try await withRedis { redis in
            let client = RedisClient(configuration: redis.clientConfiguration)
            defer { client.shutdown() }
            let first = try #require(try await RedisLease.acquire("lease:a", duration: .seconds(30), client: client))
            #expect(try await RedisLease.acquire("lease:a", duration: .seconds(30), client: client) == nil)
            #expect(try await first.renew(for: .seconds(60)))
            let ttl = try await client.send(RESPCommand("PTTL", "lease:a"))
            guard case .integer(let milliseconds) = ttl else {
                Issue.record("\(ttl)")
                return
            }
            #expect(milliseconds > 30_000 && milliseconds <= 60_000)
            try await first.release()
            let second = try #require(try await RedisLease.acquire("lease:a", duration: .seconds(30), client: client))
            // The first holder's lease is gone: it can neither renew nor release the second's.
            #expect(try await !first.renew(for: .seconds(30)))
            try await first.release()
            #expect(try await client.send(RESPCommand("GET", "lease:a")).bytes.map { String(buffer: $0) } == second.token)
        }
    }

    @Test func aLeaseIsRenewedWhileItsHolderWorks() async throws {
        try await withRedis { redis in
            let client = RedisClient(configuration: redis.clientConfiguration)
            defer { client.shutdown() }
            func millisecondsLeft() async throws -> Int64 {
                guard case .integer(let left) = try await client.send(RESPCommand("PTTL", "lease:b")) else { return -3 }
                return left
            }
            // Long enough that no stall of a machine running the whole suite lets it lapse. The
            // first renewal comes a third of the duration (10 s) after the lease was taken: left
            // alone, at most 20 s would be left by then; renewed, nearly 30 s are.
            let duration = TimeAmount.seconds(30)
            let lease = try #require(try await RedisLease.acquire("lease:b", duration: duration, client: client))
            let renewals = AsyncStream<Void>.makeStream()
            let renewing = lease.keepRenewed(for: duration) { renewals.continuation.yield() }
            var renewed = renewals.stream.makeAsyncIterator()
            await renewed.next()
            let left = try await millisecondsLeft()
            renewing.cancel()
            try await lease.release()
            #expect(left > 20_000, "renewed: \(left) ms left")
            #expect(try await client.send(RESPCommand("EXISTS", "lease:b")) == .integer(0), "released after the work")
        }
    }

    // MARK: Notifications

    @Test func aPublishedKeyWakesItsWaitersOnly() async throws {
        try await withRedis { redis in
            let client = RedisClient(configuration: redis.clientConfiguration)
            let notifications = RedisNotifications(client: client, channel: "test:ready")
            defer {
                notifications.shutdown()
                client.shutdown()
            }
            // Published once both waits have begun (subscribed, registered).
            let started = AsyncStream<String>.makeStream()
            notifications.waitStarted.set { started.continuation.yield($0) }
            async let woken = notifications.wait(for: "photo", timeout: .seconds(60))
            async let other = notifications.wait(for: "other", timeout: .milliseconds(300))
            var waits = Set<String>()
            for await key in started.stream {
                waits.insert(key)
                if waits.count == 2 { break }
            }
            let publisher = RedisClient(configuration: redis.clientConfiguration)
            defer { publisher.shutdown() }
            try await RedisNotifications(client: publisher, channel: "test:ready").publish("photo")
            #expect(await woken)
            #expect(await !other, "a key nobody published times out")
        }
    }
}
