// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherServer
import KingfisherTestKit
import Testing

/// Coalescing, caching across restarts, bounded work and graceful shutdown of the service.
@Suite struct ImageServerBehaviourTests {
    @Test func identicalRequestsMakeOneFetchAndOtherProcessingsShareTheOriginal() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                // Slow enough that all eight arrive while the first is still fetching.
                let source = origin.url("/slow/photo_baseline_420.jpg?chunk=1024&interval=40")
                let path = service.path(source, "resize(50x50,fill)|>round(6)", format: .png)
                let answers = try await withThrowingTaskGroup(of: ImageServiceUnderTest.Answer.self) { group in
                    for _ in 0..<8 { group.addTask { try await service.get(path) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.allSatisfy { $0.status == 200 })
                #expect(Set(answers.map(\.body)).count == 1)
                #expect(origin.requests("/slow/photo_baseline_420.jpg") == 1)
                let metrics = try await service.get("/metrics").text
                #expect(metrics.contains("kf_processing_runs_total 1"), "one processing run; the other requests joined it")

                let other = try await service.get(service.path(source, "blur(3)", format: .webp))
                #expect(other.status == 200)
                #expect(origin.requests("/slow/photo_baseline_420.jpg") == 1, "the original came from its cache")
                let after = try await service.get("/metrics").text
                #expect(after.contains(#"kf_results_total{level="original"} 1"#), "\(after)")
            }
        }
    }

    @Test func anUnprocessedRequestKeepsTheOriginalForOtherProcessings() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                let unprocessed = try await service.get(service.path(source, nil, format: .webp))
                let resized = try await service.get(service.path(source, "resize(20x20)", format: .png))
                #expect(unprocessed.status == 200 && resized.status == 200)
                #expect(origin.requests("/image/photo_baseline_420.jpg") == 1)
            }
        }
    }

    @Test func anotherFormatOfAResultIsOnlyAnEncoding() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                let png = try await service.get(service.path(source, "resize(30x30,fill)", format: .png))
                let webp = try await service.get(service.path(source, "resize(30x30,fill)", format: .webp))
                #expect(png.status == 200 && webp.status == 200)
                #expect(origin.requests("/image/photo_baseline_420.jpg") == 1)
                #expect(try await service.get("/metrics").text.contains(#"kf_results_total{level="processed"} 1"#))
            }
        }
    }

    @Test func aRestartedServiceServesFromDisk() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            let configuration = testServiceConfiguration(directory: directory)
            let source = origin.url("/image/photo_baseline_420.jpg")
            let first = try await withImageService(configuration) { service in
                try await service.get(service.path(source, "resize(32x32)|>blackwhite", format: .jpg))
            }
            #expect(first.status == 200)
            try await withImageService(configuration) { service in
                let again = try await service.get(service.path(source, "resize(32x32)|>blackwhite", format: .jpg))
                #expect(again.status == 200)
                #expect(again.body == first.body)
                #expect(again.header("ETag") == first.header("ETag"))
                #expect(origin.requests("/image/photo_baseline_420.jpg") == 1)
                #expect(try await service.get("/metrics").text.contains(#"kf_results_total{level="disk"} 1"#))
            }
        }
    }

    /// The disk caches hold their size as each file is written, not only at the hourly cleaning.
    @Test func theDiskCachesStayWithinTheirLimitAsTheyAreWritten() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.diskCacheBytes = 20_000
            try await withImageService(configuration) { service in
                for side in 10..<70 {
                    let answer = try await service.get(service.path(origin.url("/image/photo_baseline_420.jpg"), "resize(\(side)x\(side))"))
                    #expect(answer.status == 200)
                }
            }
            var sizes: [String: [Int]] = [:]
            let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])!
            for case let file as URL in files where (try file.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
                sizes[file.deletingLastPathComponent().lastPathComponent, default: []].append(
                    try file.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0)
            }
            #expect(sizes.count == 2, "results and originals: \(sizes.keys)")
            for (cache, files) in sizes {
                #expect(files.reduce(0, +) <= 20_000 + files.max()!, "\(cache): \(files.count) files, \(files.reduce(0, +)) bytes")
            }
            #expect(sizes.values.map(\.count).max()! > 1)
        }
    }

    @Test func aFullQueueIsTurnedAwayWith503() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.processingSlots = 1
            configuration.queueLimit = 1
            configuration.retryAfter = 7
            try await withImageService(configuration) { service in
                // The test holds the one slot: the first request waits in line, the second is turned away.
                try await service.slots.take()
                let source = origin.url("/image/photo_baseline_420.jpg")
                async let first = service.get(service.path(source, "resize(11x10)"))
                try await service.waitForSlots { $0.waiting == 1 }
                let second = try await service.get(service.path(source, "resize(12x10)"))
                #expect(second.status == 503)
                #expect(second.header("Retry-After") == "7")
                #expect(second.text.contains("busy"))
                #expect(try await service.get("/metrics").text.contains("kf_queue_rejections_total 1"))
                service.slots.giveBack()
                #expect(try await first.status == 200)
            }
        }
    }

    /// A result that holds its slot past the processing timeout is answered 504 at once; its
    /// work is cancelled, and the slot comes back for the next request.
    @Test func processingPastItsDeadlineIs504() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.processingSlots = 1
            // Far less than decoding, resampling to 2 million pixels and encoding take (a debug
            // build's tenths of a second), and the work past the answer stays small.
            configuration.processingTimeout = 0.01
            try await withImageService(configuration) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                let slow = try await service.get(service.path(source, "resize(1500x1500,none)"))
                #expect(slow.status == 504, "\(slow.text)")
                #expect(slow.text.hasSuffix("ran past the 0.01 s processing timeout\n"), "\(slow.text)")
                try await service.waitForSlots { $0.busy == 0 }
            }
        }
    }

    /// Decoded pixels share one budget: a request whose pixels do not fit while others hold
    /// theirs gets 503 and is served once they are given back; one that needs more than the
    /// whole budget (here a 57-byte-header PNG declaring 7000x7000, refused from its header) is
    /// 413. Nothing stays held after the answers.
    @Test func pixelsShareOneMemoryBudget() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.pixelMemoryBytes = 8_000_000
            try await withImageService(configuration) { service in
                let budget = service.slots.pixelMemory
                // Another request's pixels: 7.95 of the 8 MB.
                let other = budget.makeAccount()
                try other.charge(7_950_000)
                let path = service.path(origin.url("/image/photo_baseline_420.jpg"), "resize(40x30,none)")
                let waiting = try await service.get(path)
                #expect(waiting.status == 503, "\(waiting.text)")
                #expect(waiting.header("Retry-After") == "\(service.configuration.retryAfter)")
                #expect(waiting.text.hasPrefix("processing http://127.0.0.1:"), "\(waiting.text)")
                #expect(
                    waiting.text.contains("must wait: its pixels need 1 MB at once and other work holds 8 MB of the 8 MB"),
                    "\(waiting.text)")
                other.close()
                #expect(try await service.get(path).status == 200)

                // 190x127 made 2000x1000: 8 MB of output beside the decoded source.
                let tooLarge = try await service.get(service.path(origin.url("/image/photo_baseline_420.jpg"), "resize(2000x1000,none)"))
                #expect(tooLarge.status == 413)
                #expect(tooLarge.text.contains("more than the whole pixel memory budget of 8 MB"), "\(tooLarge.text)")

                let declared: [UInt8] =
                    [137, 80, 78, 71, 13, 10, 26, 10]
                    + PNGBuilder.chunk("IHDR", PNGBuilder.word(7000) + PNGBuilder.word(7000) + [8, 6, 0, 0, 0])
                    + PNGBuilder.chunk("IDAT", PNGBuilder.zlibCompress([0, 0, 0, 0, 0])) + PNGBuilder.chunk("IEND", [])
                origin.serve(Data(declared), as: "declared_7000.png")
                let bomb = try await service.get(service.path(origin.url("/image/declared_7000.png"), "resize(10x10)"))
                #expect(bomb.status == 413)
                #expect(bomb.text.contains("its pixels need 196 MB at once"), "\(bomb.text)")
                #expect(budget.heldBytes == 0)
                let metrics = try await service.get("/metrics")
                #expect(metrics.text.contains("kf_pixel_memory_refusals_total 3"), "\(metrics.text)")
            }
        }
    }

    /// A processing step that would make more than the result pixel limit is refused before it
    /// allocates, with 400.
    @Test func aResultOverItsPixelLimitIs400() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.maxResultPixels = 1_000_000
            try await withImageService(configuration) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                let over = try await service.get(service.path(source, "resize(1001x1000,none)"))
                #expect(over.status == 400)
                #expect(over.text.contains("over the limit of 1000000 pixels"), "\(over.text)")
                #expect(try await service.get(service.path(source, "resize(1000x1000,none)")).status == 200)
            }
        }
    }

    /// Fetching holds no processing slot: a source that never answers delays only its own request.
    @Test func aHangingSourceHoldsNoSlot() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.processingSlots = 1
            configuration.queueLimit = 0
            configuration.fetchTimeout = 2 * Double(SanitizerAllowance.time)
            try await withImageService(configuration) { service in
                async let hanging = service.get(service.path(origin.url("/hang"), "resize(10x10)"))
                try await origin.wait { ($0.requests["/hang"] ?? 0) == 1 }
                let other = try await service.get(service.path(origin.url("/image/photo_baseline_420.jpg"), "resize(10x10)"))
                #expect(other.status == 200, "\(other.text)")
                #expect(try await hanging.status == 504)
            }
        }
    }

    /// A client that goes away cancels the work only it waited for: here its source's fetch.
    /// The limit stops a fetch that is never cancelled (its timeout is ten minutes); it leaves
    /// room for the whole suite running beside it on two cores, when this suite's neighbours
    /// take 75 s (most of it before their first request).
    @Test(.timeLimit(.minutes(SanitizerAllowance.isActive ? 10 : 4))) func aClientGoingAwayCancelsItsFetch() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.fetchTimeout = 600
            try await withImageService(configuration, reach: .socket) { service in
                let path = service.path(origin.url("/hang"), "resize(10x10)")
                let socket = try LoopbackSocket(port: service.port)
                try socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                try await origin.wait { ($0.requests["/hang"] ?? 0) == 1 }
                socket.close()
                try await origin.wait { ($0.aborted["/hang"] ?? 0) == 1 }
                // Recorded as the client's doing (499, as nginx does), not as a failure (500):
                // waited for as any status other than the metrics' own 200s, then checked.
                var metrics = try await service.get("/metrics").text
                while !metrics.split(separator: "\n").contains(where: {
                    $0.hasPrefix("kf_requests_total{status=") && !$0.contains("\"200\"")
                }) {
                    await Task.yield()
                    metrics = try await service.get("/metrics").text
                }
                #expect(metrics.contains("kf_requests_total{status=\"499\"} 1"), "\(metrics)")
                #expect(!metrics.contains("status=\"500\""), "\(metrics)")
            }
        }
    }

    @Test func gracefulShutdownFinishesRequestsInFlight() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            let (stopped, answer) = try await withImageServiceStoppedMidRequest(
                testServiceConfiguration(directory: directory),
                inFlight: { try await origin.wait { $0.requests["/slow/photo_baseline_420.jpg"] == 1 } }
            ) { service in
                // About a second of body after the origin saw the request: the shutdown comes mid-fetch.
                service.path(origin.url("/slow/photo_baseline_420.jpg?chunk=1024&interval=100"), "resize(20x20)")
            }
            #expect(stopped)
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/jpeg")
        }
    }
}
