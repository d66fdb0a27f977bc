// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

/// At most `maxConcurrentDownloads` exchanges run; waiting downloads start highest priority
/// first, then first come; raising a waiting download's priority moves it ahead. On a
/// ControllableTransport, a slot frees exactly when the test answers an exchange.
@Suite(.timeLimit(.minutes(10))) struct ImageDownloaderPriorityTests {
    let transport = ControllableTransport()
    let downloader: ImageDownloader
    let photo: Data

    init() throws {
        downloader = transport.makeDownloader()
        photo = try Fixtures.data("photo.png")
    }

    func url(_ name: String) -> URL { URL(string: "https://example.com/\(name)")! }

    /// Answers `running`, then each exchange the freed slot starts, one at a time, until
    /// `count` more have run; returns the names of those, in start order.
    func startOrder(afterAnswering running: ControlledExchange, count: Int) async throws -> [String] {
        var order: [String] = []
        running.respond(withImage: photo)
        for _ in 0..<count {
            let next = try await transport.nextExchange()
            order.append(next.url.lastPathComponent)
            next.respond(withImage: photo)
        }
        return order
    }

    @Test func waitingDownloadsStartHighestPriorityFirst() async throws {
        // Given one slot, taken
        downloader.maxConcurrentDownloads = 1
        let blocker = DownloadCall(downloader, url("blocker"))
        let running = try await transport.nextExchange()

        // When downloads of several priorities wait
        let waiting = [
            DownloadCall(downloader, url("low"), priority: 0.1), DownloadCall(downloader, url("high"), priority: 0.9),
            DownloadCall(downloader, url("middle"), priority: 0.5),
        ]
        #expect(downloader.activeDownloadCount.waiting == 3)

        // Then they start one at a time, highest priority first
        #expect(try await startOrder(afterAnswering: running, count: 3) == ["high", "middle", "low"])
        for call in [blocker] + waiting { _ = try await call.image() }
        #expect(transport.maxOpenCount == 1)
    }

    @Test func equalPrioritiesStartInArrivalOrder() async throws {
        downloader.maxConcurrentDownloads = 1
        let blocker = DownloadCall(downloader, url("blocker"))
        let running = try await transport.nextExchange()
        let waiting = ["first", "second", "third"].map { DownloadCall(downloader, url($0), priority: 0.5) }
        #expect(try await startOrder(afterAnswering: running, count: 3) == ["first", "second", "third"])
        for call in [blocker] + waiting { _ = try await call.image() }
    }

    @Test func raisingAWaitingTasksPriorityMovesItAhead() async throws {
        // Given one slot, taken, and four downloads waiting
        downloader.maxConcurrentDownloads = 1
        let blocker = DownloadCall(downloader, url("blocker"))
        let running = try await transport.nextExchange()
        let gif = DownloadCall(downloader, url("photo.gif"), priority: 0.1)
        let jpeg = DownloadCall(downloader, url("orientation_1.jpg"), priority: 0.2)
        let webp = DownloadCall(downloader, url("photo_lossy.webp"), priority: 0.5)
        let png = DownloadCall(downloader, url("png_rgb_8.png"), priority: 0.9)

        // When the second lowest is raised above all
        jpeg.task?.priority = 1.0

        // Then it starts first; the others keep their order
        let order = try await startOrder(afterAnswering: running, count: 4)
        #expect(order == ["orientation_1.jpg", "png_rgb_8.png", "photo_lossy.webp", "photo.gif"])
        for call in [blocker, gif, jpeg, webp, png] { _ = try await call.result() }
    }

    @Test func aJoiningCallerWithAHigherPriorityRaisesTheWaitingDownload() async throws {
        // Given one slot, taken, and two downloads waiting
        downloader.maxConcurrentDownloads = 1
        let blocker = DownloadCall(downloader, url("blocker"))
        let running = try await transport.nextExchange()
        let early = DownloadCall(downloader, url("early"), priority: 0.5)
        let late = DownloadCall(downloader, url("late"), priority: 0.2)

        // When a second caller of the later one asks at a higher priority
        let urgent = DownloadCall(downloader, url("late"), priority: 0.9)

        // Then the shared download starts first
        #expect(try await startOrder(afterAnswering: running, count: 2) == ["late", "early"])
        for call in [blocker, early, late, urgent] { _ = try await call.image() }
    }

    @Test func atMostMaximumConcurrentDownloadsRunAtOnce() async throws {
        // Given a limit of two
        downloader.maxConcurrentDownloads = 2

        // When four downloads are asked for
        let calls = (0..<4).map { DownloadCall(downloader, url("\($0)")) }

        // Then two run and two wait
        #expect(transport.startedCount == 2)
        #expect(downloader.activeDownloadCount == (running: 2, waiting: 2))

        // And each answered exchange lets exactly one more start
        let first = try await transport.exchange(at: 0)
        let second = try await transport.exchange(at: 1)
        first.respond(withImage: photo)
        let third = try await transport.exchange(at: 2)
        #expect(downloader.activeDownloadCount == (running: 2, waiting: 1))
        #expect(transport.openCount == 2)
        second.respond(withImage: photo)
        third.respond(withImage: photo)
        try await transport.exchange(at: 3).respond(withImage: photo)
        for call in calls { _ = try await call.image() }
        #expect(transport.maxOpenCount == 2)
    }

    @Test func raisingTheMaximumStartsWaitingDownloadsAtOnce() async throws {
        // Given one slot, taken, and two downloads waiting
        downloader.maxConcurrentDownloads = 1
        let calls = (0..<3).map { DownloadCall(downloader, url("\($0)")) }
        #expect(transport.startedCount == 1)

        // When the limit rises
        downloader.maxConcurrentDownloads = 3

        // Then the waiting ones start before the setter returns
        #expect(transport.startedCount == 3)
        for exchange in transport.exchanges { exchange.respond(withImage: photo) }
        for call in calls { _ = try await call.image() }
    }
}
