// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch
import Foundation
import Kingfisher

/// Cache latencies for BENCHMARKS.md: medians over batches, so clock reads do not dominate.
enum CacheBenchmark {
    static func nanoseconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// Median per-hit time in ns over batches of `batch` lookups of random present keys.
    static func memoryHits(_ storage: MemoryStorage.Backend<KingfisherImage>, keys: [String], batches: Int, batch: Int = 200) -> Double {
        var generator = SystemRandomNumberGenerator()
        var samples: [Double] = []
        samples.reserveCapacity(batches)
        for _ in 0..<batches {
            let picks = (0..<batch).map { _ in keys[Int.random(in: 0..<keys.count, using: &generator)] }
            var found = 0
            samples.append(
                nanoseconds {
                    for key in picks where storage.value(forKey: key) != nil { found += 1 }
                } / Double(batch))
            precondition(found == batch)
        }
        return median(samples)
    }

    static func run(jpeg: Data) async {
        let tiny = KingfisherImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
        let storage = MemoryStorage.Backend<KingfisherImage>(config: MemoryStorage.Config(cleanInterval: 0))

        let keys1k = (0..<1000).map { "https://example.com/images/\($0).jpg" }
        for key in keys1k { storage.store(value: tiny, forKey: key) }
        _ = memoryHits(storage, keys: keys1k, batches: 200)
        print("memory_hit_ns_1thread=\(String(format: "%.0f", memoryHits(storage, keys: keys1k, batches: 2000)))")

        let pair = DispatchGroup()
        nonisolated(unsafe) var twoThreadMedians: [Double] = [0, 0]
        for thread in 0..<2 {
            DispatchQueue.global().async(group: pair) {
                twoThreadMedians[thread] = memoryHits(storage, keys: keys1k, batches: 2000)
            }
        }
        pair.wait()
        print("memory_hit_ns_2threads=\(String(format: "%.0f", twoThreadMedians.max()!))")

        storage.removeAll()
        let keys100k = (0..<100_000).map { "https://example.com/images/\($0).jpg" }
        let insertTotal = nanoseconds { for key in keys100k { storage.store(value: tiny, forKey: key) } }
        print("memory_insert_ns_100k=\(String(format: "%.0f", insertTotal / 100_000))")
        print("memory_hit_ns_100k=\(String(format: "%.0f", memoryHits(storage, keys: keys100k, batches: 2000)))")

        // Disk: a 400 px JPEG thumbnail, read and decoded.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kf-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let cache = try ImageCache(name: "bench", cacheDirectoryURL: directory)
            let thumbnail = try KingfisherImage.downsampled(data: jpeg, maxPixelSize: 400)
            let thumbnailData = try thumbnail.encoded(as: .JPEG, compressionQuality: 0.8)
            print("disk_thumbnail_bytes=\(thumbnailData.count)")
            // Store the thumbnail's own bytes (as `preferCacheOriginalData` does), so the disk
            // hit reads and decodes a ~25 KB JPEG.
            var serializer = DefaultCacheSerializer()
            serializer.preferCacheOriginalData = true
            var options = KingfisherParsedOptionsInfo([.cacheSerializer(serializer)])
            options.loadDiskFileSynchronously = true
            let storeCount = 300
            let storeStart = DispatchTime.now().uptimeNanoseconds
            for i in 0..<storeCount {
                try await cache.store(thumbnail, original: thumbnailData, forKey: "thumb-\(i)", options: options)
            }
            let storeSeconds = Double(DispatchTime.now().uptimeNanoseconds - storeStart) / 1e9
            print("store_per_second=\(String(format: "%.0f", Double(storeCount) / storeSeconds))")
            var samples: [Double] = []
            for i in 0..<600 {
                let key = "thumb-\(i % storeCount)"
                samples.append(
                    nanoseconds {
                        cache.retrieveImageInDiskCache(forKey: key, options: options) { result in
                            precondition((try? result.get()) != nil)
                        }
                    } / 1000)
            }
            print("disk_hit_us=\(String(format: "%.0f", median(Array(samples.dropFirst(100)))))")
        } catch {
            fail("\(error)")
        }
    }
}
