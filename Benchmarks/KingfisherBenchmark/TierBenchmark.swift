// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch
import Foundation
import Kingfisher
import KingfisherRedis

/// What a hit in the shared Redis level costs next to a local disk hit, for BENCHMARKS.md: the
/// same bytes (an encoded result) read back by key from a `DiskStorage` and from a
/// `RedisStorage` on a loopback redis-server, one read at a time, medians over many reads.
enum TierBenchmark {
    static func microseconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    }

    static func run(value: Data, redisPort: Int, reads: Int = 2000) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kf-bench-tier-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try DiskStorage.Backend<Data>(config: DiskStorage.Config(name: "tier", sizeLimit: 0, directory: directory))
        var configuration = RedisClient.Configuration()
        configuration.port = redisPort
        let client = RedisClient(configuration: configuration)
        defer { client.shutdown() }
        let redis = RedisStorage.Backend<Data>(config: RedisStorage.Config(client: client, prefix: "kf-bench:"))
        let keys = (0..<100).map { "https://example.com/images/\($0).jpg resize(300x200,fill) q80 jpg" }
        for key in keys {
            try disk.store(value: value, forKey: key)
            try await redis.store(value: value, forKey: disk.cacheFileName(forKey: key))
        }
        var diskTimes: [Double] = []
        var redisTimes: [Double] = []
        for index in 0..<(reads + 200) {
            let key = keys[index % keys.count]
            var diskRead: Data?
            var redisRead: Data?
            let diskTime = try await microseconds { diskRead = try disk.value(forKey: key) }
            let name = disk.cacheFileName(forKey: key)
            let redisTime = try await microseconds { redisRead = try await redis.value(forKey: name) }
            precondition(diskRead?.count == value.count && redisRead?.count == value.count)
            if index >= 200 {  // the first reads warm the connection and the page cache
                diskTimes.append(diskTime)
                redisTimes.append(redisTime)
            }
        }
        let diskMedian = CacheBenchmark.median(diskTimes)
        let redisMedian = CacheBenchmark.median(redisTimes)
        print("tier_value_bytes=\(value.count)")
        print("disk_hit_us=\(String(format: "%.1f", diskMedian))")
        print("redis_hit_us=\(String(format: "%.1f", redisMedian))")
        print("redis_added_us=\(String(format: "%.1f", redisMedian - diskMedian))")
        print("redis_hit_p99_us=\(String(format: "%.1f", redisTimes.sorted()[redisTimes.count * 99 / 100]))")
    }
}
