// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherServer
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherRedis

/// Several `kf serve` nodes in this process sharing one real redis-server: results made once
/// across nodes, shared through Redis, and every answer still given when Redis is gone.
@Suite struct ImageServerClusterTests {
    /// Runs `body` with `count` services, each with its own cache directory, all on `redis`.
    func withNodes<T: Sendable>(
        _ count: Int, redis: RedisTestServer, leaseSeconds: Double = 5,
        _ body: @Sendable ([ImageServiceUnderTest]) async throws -> T
    ) async throws -> T {
        @Sendable func start(_ started: [ImageServiceUnderTest]) async throws -> T {
            guard started.count < count else { return try await body(started) }
            return try await withTemporaryDirectory { directory in
                var configuration = testServiceConfiguration(directory: directory)
                configuration.redis = redis.url.absoluteString
                configuration.leaseSeconds = leaseSeconds
                return try await withImageService(configuration) { node in try await start(started + [node]) }
            }
        }
        return try await start([])
    }

    /// Sends `perNode` requests for `path` to every node at once.
    func requestEverywhere(_ nodes: [ImageServiceUnderTest], _ path: String, perNode: Int) async throws -> [ImageServiceUnderTest.Answer] {
        try await withThrowingTaskGroup(of: ImageServiceUnderTest.Answer.self) { group in
            for node in nodes {
                for _ in 0..<perNode { group.addTask { try await node.get(path) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    func resultLevels(_ node: ImageServiceUnderTest) async throws -> [String: Int] {
        let text = try await node.get("/metrics").text
        var levels: [String: Int] = [:]
        for match in text.matches(of: /kf_results_total\{level="(\w+)"\} (\d+)/) { levels[String(match.1)] = Int(match.2) }
        return levels
    }

    @Test func thirtyRequestsOverThreeNodesMakeOneSourceFetch() async throws {
        try await withRedis { redis in
            try await withTestHTTPServer { origin in
                // Slow enough that all thirty arrive while the first node is still fetching.
                let source = origin.url("/slow/photo_baseline_420.jpg?chunk=1024&interval=20")
                try await withNodes(3, redis: redis) { nodes in
                    let path = nodes[0].path(source, "resize(40x40,fill)", format: .png)
                    let answers = try await requestEverywhere(nodes, path, perNode: 10)
                    #expect(answers.count == 30 && answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.status))")
                    #expect(Set(answers.map(\.body)).count == 1)
                    #expect(origin.requests("/slow/photo_baseline_420.jpg") == 1)
                    var runs = 0
                    for node in nodes {
                        let text = try await node.get("/metrics").text
                        runs += Int(text.firstMatch(of: /kf_processing_runs_total (\d+)/)?.1 ?? "0") ?? 0
                    }
                    #expect(runs == 1, "one node made it; the others waited for it")
                }
                // New nodes, empty local caches: the same URL comes from Redis.
                try await withNodes(3, redis: redis) { nodes in
                    let path = nodes[0].path(source, "resize(40x40,fill)", format: .png)
                    let answers = try await requestEverywhere(nodes, path, perNode: 2)
                    #expect(answers.allSatisfy { $0.status == 200 })
                    #expect(origin.requests("/slow/photo_baseline_420.jpg") == 1, "no new source request")
                    for node in nodes {
                        #expect(try await resultLevels(node)["redis", default: 0] >= 1)
                    }
                }
            }
        }
    }

    @Test func anotherProcessingOnAnotherNodeUsesTheOriginalFromRedis() async throws {
        try await withRedis { redis in
            try await withTestHTTPServer { origin in
                let source = origin.url("/image/photo_baseline_420.jpg")
                try await withNodes(2, redis: redis) { nodes in
                    #expect(try await nodes[0].get(nodes[0].path(source, "resize(40x40,fill)", format: .png)).status == 200)
                    // The first node holds the original's fetch lease until the original is in
                    // Redis: the second finds it there, or waits for the lease and then finds it.
                    let other = try await nodes[1].get(nodes[1].path(source, "blur(2)", format: .png))
                    #expect(other.status == 200, "\(other.text)")
                    #expect(origin.requests("/image/photo_baseline_420.jpg") == 1, "the second node fetched nothing")
                }
            }
        }
    }

    @Test func threeProcessingsOfANewSourceOnThreeNodesMakeOneSourceFetch() async throws {
        try await withRedis { redis in
            try await withTestHTTPServer { origin in
                let source = origin.url("/slow/photo_baseline_420.jpg?chunk=1024&interval=20")
                try await withNodes(3, redis: redis) { nodes in
                    let answers = try await withThrowingTaskGroup(of: ImageServiceUnderTest.Answer.self) { group in
                        for (node, processing) in zip(nodes, ["resize(40x40,fill)", "blur(2)", "resize(20x20)"]) {
                            group.addTask { try await node.get(node.path(source, processing, format: .png)) }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.text))")
                    #expect(
                        origin.requests("/slow/photo_baseline_420.jpg") == 1,
                        "one node fetched under the original's lease; the others processed what it stored")
                }
            }
        }
    }

    @Test func aPurgeOnOneNodeRemovesTheResultEverywhere() async throws {
        try await withRedis { redis in
            try await withTestHTTPServer { origin in
                let fixture = "/cacheable/photo_baseline_420.jpg"
                // Fresh for an hour: only the purge makes the nodes see the change.
                let source = origin.url("\(fixture)?cc=max-age%3D3600")
                try await withNodes(3, redis: redis) { nodes in
                    for node in nodes { await node.slots.listening() }
                    let path = nodes[0].path(source, "resize(40x30)", format: .jpg)
                    var before: [ImageServiceUnderTest.Answer] = []
                    for node in nodes { before.append(try await node.get(path)) }
                    #expect(before.allSatisfy { $0.status == 200 } && Set(before.map(\.body)).count == 1)
                    #expect(origin.requests(fixture) == 1)
                    #expect(try await storedKeys(redis).contains { $0.hasPrefix("kf:result:") }, "the result is in Redis")

                    origin.replaceFixture(of: fixture, with: "photo_baseline_444.jpg")
                    let purged = try await nodes[1].get(ImageURLPath.makePurge(source: source, signer: nil), method: .DELETE)
                    #expect(purged.status == 200 && purged.text.contains("every node was told"), "\(purged.text)")
                    for node in [nodes[0], nodes[2]] { _ = try await node.slots.purgesHeard.wait { $0 >= 1 } }
                    // Redis keeps nothing made from the source; each node kept its result in
                    // memory and on disk, and none serves it.
                    let left = try await storedKeys(redis).filter { $0.hasPrefix("kf:result:") || $0.hasPrefix("kf:original:") }
                    #expect(left.isEmpty, "left in Redis: \(left)")
                    for node in nodes {
                        let after = try await node.get(path)
                        #expect(after.status == 200 && after.body != before[0].body && after.header("ETag") != before[0].header("ETag"))
                        #expect(try await node.get("/metrics").text.contains(#"kf_purges_total"#))
                    }
                    #expect(origin.requests(fixture) == 2, "one fetch of the new source for the three nodes")
                    #expect(try await nodes[0].get("/metrics").text.contains(#"kf_purges_total{origin="broadcast"} 1"#))
                }
            }
        }
    }

    /// Every key in the Redis server, but leases.
    func storedKeys(_ redis: RedisTestServer) async throws -> [String] {
        let run = try await redis.cli("--scan")
        return run.stdout.split(separator: "\n").map(String.init).filter { !$0.contains(":lease:") }
    }

    @Test func withRedisStoppedEveryRequestStillSucceeds() async throws {
        try await withRedis { redis in
            try await withTestHTTPServer { origin in
                try await withNodes(2, redis: redis) { nodes in
                    await redis.stop()
                    for (index, node) in nodes.enumerated() {
                        let answer = try await node.get(
                            node.path(origin.url("/image/photo.png?node=\(index)"), "resize(30x30)", format: .png))
                        #expect(answer.status == 200, "\(answer.text)")
                    }
                    // Both nodes make the same new result themselves: no tier, no waiting.
                    let shared = origin.url("/image/photo.png?both")
                    let answers = try await requestEverywhere(nodes, nodes[0].path(shared, "blur(2)", format: .png), perNode: 2)
                    #expect(answers.allSatisfy { $0.status == 200 })
                    #expect(origin.requests("/image/photo.png") == 4, "two single requests and one fetch per node")
                    // A purge cannot reach the other nodes, and says so.
                    let purge = try await nodes[0].get(ImageURLPath.makePurge(source: shared, signer: nil), method: .DELETE)
                    #expect(purge.status == 503 && purge.text.contains("was purged on this node only: "), "\(purge.text)")
                }
            }
        }
    }

    @Test func aConfiguredRedisURLMustBeRedis() throws {
        var configuration = ImageServerConfiguration()
        configuration.allowUnsigned = true
        configuration.redis = "http://127.0.0.1:6379"
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.redis = "redis://127.0.0.1:6379"
        try configuration.validate()
    }
}
