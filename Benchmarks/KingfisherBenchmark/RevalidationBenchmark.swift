// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import AsyncHTTPClient
import Foundation
import Kingfisher
import NIOCore
import NIOHTTP1

/// `kf-bench revalidate URL`: what a revalidated hit costs. URL must answer with an `ETag` and
/// `Cache-Control: no-cache`, so that every use under ``HTTPCachePolicy/followHeaders`` is a
/// conditional request answered `304`. Interleaved, one at a time, with the memory cache cleared
/// before each retrieval (so both read the disk, as a new `kf get` process does), it times:
/// - a disk hit (the default policy: read and decode),
/// - a revalidated hit (a conditional request, the `304`, then the disk hit),
/// - one loopback round trip: the same conditional request with AsyncHTTPClient alone.
/// Prints the medians in microseconds as `disk_hit_us`, `revalidated_hit_us`, `round_trip_us`.
enum RevalidationBenchmark {
    static func microseconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func run(url: URL, rounds: Int = 300) async {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kf-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The shared client: the process ends right after, so nothing needs shutting down.
        let client = HTTPClient.shared
        do {
            let cache = try ImageCache(name: "bench", cacheDirectoryURL: directory)
            let manager = KingfisherManager(downloader: ImageDownloader(name: "bench"), cache: cache)
            let following: KingfisherOptionsInfo = [.httpCachePolicy(.followHeaders), .waitForCache]
            _ = try await manager.retrieveImage(with: url, options: following)
            let first = try await client.execute(request: HTTPClient.Request(url: url)).get()
            guard let tag = first.headers.first(name: "ETag") else { fail("\(url) sends no ETag") }
            var conditional = try HTTPClient.Request(url: url)
            conditional.headers.add(name: "If-None-Match", value: tag)

            var disk: [Double] = []
            var revalidated: [Double] = []
            var roundTrip: [Double] = []
            for round in 0..<(rounds + 20) {
                cache.clearMemoryCache()
                let diskTime = try await microseconds {
                    let result = try await manager.retrieveImage(with: url, options: [.waitForCache])
                    guard result.cacheType == .disk else { fail("expected a disk hit, got \(result.cacheType)") }
                }
                cache.clearMemoryCache()
                let revalidatedTime = try await microseconds {
                    let result = try await manager.retrieveImage(with: url, options: following)
                    guard result.cacheType == .disk else { fail("expected a revalidated disk hit, got \(result.cacheType)") }
                }
                let roundTripTime = try await microseconds {
                    let response = try await client.execute(request: conditional).get()
                    guard response.status == .notModified else { fail("expected 304 from \(url), got \(response.status)") }
                }
                // The first rounds warm connections, caches and branch predictors.
                guard round >= 20 else { continue }
                disk.append(diskTime)
                revalidated.append(revalidatedTime)
                roundTrip.append(roundTripTime)
            }
            print("disk_hit_us=\(String(format: "%.0f", median(disk)))")
            print("revalidated_hit_us=\(String(format: "%.0f", median(revalidated)))")
            print("round_trip_us=\(String(format: "%.0f", median(roundTrip)))")
        } catch {
            fail("\(error)")
        }
    }
}
