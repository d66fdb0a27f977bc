// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

/// Cancelling one caller ends only that caller; the exchange stops when the last caller of a
/// download cancels, or on `cancel(url:)` and `cancelAll()`. On a ControllableTransport, which
/// reports when the downloader cancels an exchange.
@Suite(.timeLimit(.minutes(10))) struct ImageDownloaderCancellationTests {
    let transport = ControllableTransport()
    let downloader: ImageDownloader
    let photo: Data
    let url = URL(string: "https://example.com/photo.png")!
    let other = URL(string: "https://example.com/other.png")!

    init() throws {
        downloader = transport.makeDownloader()
        photo = try Fixtures.data("photo.png")
    }

    @Test func cancellingOneOfTwoCallersLeavesTheOther() async throws {
        // Given two callers of one URL
        let first = DownloadCall(downloader, url)
        let second = DownloadCall(downloader, url)
        let exchange = try await transport.nextExchange()

        // When the first cancels
        first.task?.cancel()

        // Then only the first fails, with taskCancelled
        #expect(try await first.error()?.isTaskCancelled == true)
        #expect(!second.isFinished)
        #expect(!exchange.isCancelled)

        // And the exchange goes on for the second
        exchange.respond(withImage: photo)
        #expect(try await second.image().pixelWidth == 190)
        #expect(try await exchange.ended() == .completed)
    }

    @Test func cancellingTheLastCallerCancelsTheExchange() async throws {
        // Given two callers of one URL
        let first = DownloadCall(downloader, url)
        let second = DownloadCall(downloader, url)
        let exchange = try await transport.nextExchange()

        // When both cancel
        first.task?.cancel()
        second.task?.cancel()

        // Then both fail with taskCancelled, and the exchange is cancelled
        #expect(try await first.error()?.isTaskCancelled == true)
        #expect(try await second.error()?.isTaskCancelled == true)
        try await exchange.cancelled()
        #expect(try await exchange.ended() == .cancelled)
        #expect(downloader.activeDownloadCount == (running: 0, waiting: 0))
    }

    @Test func cancellingTheLastCallerMidBodyStopsTheExchange() async throws {
        // Given a download whose body has begun to arrive
        let call = DownloadCall(downloader, url)
        let exchange = try await transport.nextExchange()
        try #require(try await exchange.sendHead(headers: [("Content-Length", "\(photo.count)")]))
        #expect(await exchange.sendBody(photo.prefix(1000)))

        // When its only caller cancels
        call.task?.cancel()

        // Then the exchange is cancelled and takes no more of the body
        try await exchange.cancelled()
        #expect(try await call.error()?.isTaskCancelled == true)
        #expect(await exchange.sendBody(photo.dropFirst(1000)) == false)
        #expect(try await exchange.ended() == .cancelled)
    }

    @Test func cancellingTheAsyncCallCancelsTheDownload() async throws {
        // Given an async download whose exchange has started
        let task = Task { try await downloader.downloadImage(with: url) }
        let exchange = try await transport.nextExchange()

        // When the calling task is cancelled
        task.cancel()

        // Then the call throws taskCancelled and the exchange is cancelled
        await #expect { try await task.value } throws: { ($0 as? KingfisherError)?.isTaskCancelled == true }
        try await exchange.cancelled()
    }

    @Test func cancelURLCancelsEveryCallerOfThatURL() async throws {
        // Given two callers of one URL
        let calls = [DownloadCall(downloader, url), DownloadCall(downloader, url)]
        let exchange = try await transport.exchange(for: url)

        // When the URL is cancelled
        downloader.cancel(url: url)

        // Then both fail with taskCancelled, and the exchange is cancelled
        for call in calls { #expect(try await call.error()?.isTaskCancelled == true) }
        try await exchange.cancelled()
    }

    @Test func cancelURLLeavesOtherURLs() async throws {
        // Given downloads of two URLs
        let cancelled = DownloadCall(downloader, url)
        let kept = DownloadCall(downloader, other)

        // When one URL is cancelled
        downloader.cancel(url: url)

        // Then the other's exchange goes on
        #expect(try await cancelled.error()?.isTaskCancelled == true)
        let exchange = try await transport.exchange(for: other)
        #expect(!exchange.isCancelled)
        exchange.respond(withImage: photo)
        #expect(try await kept.image().pixelWidth == 190)
    }

    @Test func cancelAllCancelsEveryRunningDownload() async throws {
        // Given downloads of two URLs, both running
        let calls = [DownloadCall(downloader, url), DownloadCall(downloader, url), DownloadCall(downloader, other)]
        let exchanges = try await transport.exchanges(count: 2)

        // When everything is cancelled
        downloader.cancelAll()

        // Then every caller fails with taskCancelled, and every exchange is cancelled
        for call in calls { #expect(try await call.error()?.isTaskCancelled == true) }
        for exchange in exchanges { try await exchange.cancelled() }
        #expect(downloader.activeDownloadCount == (running: 0, waiting: 0))
    }

    @Test func cancelAllCancelsWaitingDownloads() async throws {
        // Given one slot, taken, and a download waiting for it
        downloader.maxConcurrentDownloads = 1
        let running = DownloadCall(downloader, url)
        let waiting = DownloadCall(downloader, other)
        #expect(downloader.activeDownloadCount == (running: 1, waiting: 1))

        // When everything is cancelled
        downloader.cancelAll()

        // Then both fail with taskCancelled, and nothing is left running or waiting
        #expect(try await running.error()?.isTaskCancelled == true)
        #expect(try await waiting.error()?.isTaskCancelled == true)
        #expect(downloader.activeDownloadCount == (running: 0, waiting: 0))
        // (The waiting download may have taken the freed slot for a moment before its own
        // cancellation: whatever started was cancelled.)
        for exchange in transport.exchanges { try await exchange.cancelled() }
    }

    @Test func aCancelledWaitingDownloadNeverStarts() async throws {
        // Given one slot, taken, and a download waiting for it
        downloader.maxConcurrentDownloads = 1
        let running = DownloadCall(downloader, url)
        let waiting = DownloadCall(downloader, other)

        // When the waiting one is cancelled, and the running one then ends
        waiting.task?.cancel()
        #expect(try await waiting.error()?.isTaskCancelled == true)
        try await transport.nextExchange().respond(withImage: photo)
        _ = try await running.image()

        // Then the cancelled one never started an exchange
        #expect(transport.exchanges.map(\.url) == [url])
        #expect(downloader.activeDownloadCount == (running: 0, waiting: 0))
    }

    @Test func cancellingAfterTheDownloadEndedChangesNothing() async throws {
        // Given a finished download
        let call = DownloadCall(downloader, url)
        let exchange = try await transport.nextExchange()
        exchange.respond(withImage: photo)
        let result = try await call.result()

        // When its task is cancelled
        call.task?.cancel()

        // Then the caller kept its image, and the exchange had completed
        #expect((try? result.get())?.image.pixelWidth == 190)
        #expect(!exchange.isCancelled)
        #expect(try await exchange.ended() == .completed)
    }
}
