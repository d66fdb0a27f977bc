// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherImaging
import KingfisherTestKit
import Testing

/// The example gallery scrolled end to end over a thousand distinct images from a loopback
/// origin that answers slowly, under Xvfb.
struct GalleryScrollTests {
    static let imageCount = 1000
    static let memoryCacheMB = 40

    @Test func scrollingAThousandImagesStaysInMemoryBoundsAndCancelsWhatScrolledAway() async throws {
        try await withTestHTTPServer { server in
            // Distinct colours, 400 x 300 (480 KB decoded each: 480 MB for all of them).
            for index in 0..<Self.imageCount {
                let color = RGB(index % 256, index / 4 % 256, 255 - index % 256)
                server.serve(GalleryWindowTests.png(color, width: 400, height: 300), as: "scroll\(index).png")
            }
            // Each image trickles in over about 160 ms, so cells scroll away while loading.
            let urls = (0..<Self.imageCount).map { server.url("/slow/scroll\($0).png?chunk=256&interval=20").absoluteString }
            let run = try await withTemporaryDirectory { directory in
                let list = directory.appendingPathComponent("urls.txt")
                try urls.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
                return try await withXvfb {
                    try await $0.run(
                        GalleryWindowTests.gallery,
                        [
                            "--file", list.path, "--columns", "4", "--cell", "100", "--size", "400x400", "--fade", "0",
                            "--autoscroll", "4000", "--memory-cache-mb", "\(Self.memoryCacheMB)",
                        ], environment: ["XDG_CACHE_HOME=\(directory.path)"])
                }
            }
            #expect(run.status == 0, "gtk-gallery failed: \(run.stderr)")
            let summary = try run.json()
            let peak = summary["peakRSSBytes"] as? Int ?? .max
            let limit = summary["memoryCacheLimitBytes"] as? Int ?? 0
            #expect(limit == Self.memoryCacheMB << 20)
            // A sanitizer's shadow memory multiplies the process's own.
            let bound = (limit + 150 << 20) * SanitizerAllowance.memory
            #expect(peak < bound, "peak RSS \(peak >> 20) MB over the cache's \(limit >> 20) MB + 150 MB")
            let aborted = server.stats.read { $0.aborted.values.reduce(0, +) }
            let completed = server.stats.read { $0.completed.values.reduce(0, +) }
            #expect(aborted > 0, "no download was cancelled at the origin")
            #expect(summary["cancelledRequests"] as? Int ?? 0 > 0)
            print(
                "gallery scroll over \(Self.imageCount) images: peak RSS \(peak >> 20) MB (memory cache limit \(limit >> 20) MB), "
                    + "\(summary["shown"] ?? 0) shown, \(summary["cancelledRequests"] ?? 0) requests cancelled by cells, "
                    + "origin: \(completed) downloads completed, \(aborted) aborted")
        }
    }
}
