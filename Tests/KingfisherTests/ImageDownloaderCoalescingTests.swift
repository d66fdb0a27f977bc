// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

/// Concurrent callers of one URL share one exchange, and each distinct processor runs once per
/// download, on a ControllableTransport: the test decides when the exchange answers, so every
/// caller has joined before it does.
@Suite(.timeLimit(.minutes(10))) struct ImageDownloaderCoalescingTests {
    let transport = ControllableTransport()
    let downloader: ImageDownloader
    let photo: Data
    let url = URL(string: "https://example.com/photo.png")!

    init() throws {
        downloader = transport.makeDownloader()
        photo = try Fixtures.data("photo.png")
    }

    @Test func concurrentCallersOfOneURLShareOneExchange() async throws {
        // Given six callers of one URL
        let calls = (0..<6).map { _ in DownloadCall(downloader, url) }
        #expect(transport.startedCount == 1)

        // When the exchange answers
        try await transport.nextExchange().respond(withImage: photo)

        // Then every caller gets the image, and no other exchange was made
        for call in calls { #expect(try await call.image().pixelWidth == 190) }
        #expect(transport.startedCount == 1)
    }

    @Test func eachDistinctProcessorRunsOncePerSharedDownload() async throws {
        // Given six callers of one URL, three with processor a and three with b
        let a = CountingProcessor("a")
        let b = CountingProcessor("b")
        let calls = (0..<6).map { index in
            DownloadCall(downloader, url, options: [.processor(index % 2 == 0 ? a : b)])
        }

        // When the exchange answers
        try await transport.nextExchange().respond(withImage: photo)

        // Then each processor ran once, and every caller got a processed image
        for call in calls { #expect(try await call.image().pixelWidth == 10) }
        #expect(a.runs == 1 && b.runs == 1)
    }

    @Test func callersWithOneProcessorShareItsImage() async throws {
        // Given two callers of one URL with equal processors
        let first = DownloadCall(downloader, url, options: [.processor(CountingProcessor("same"))])
        let second = DownloadCall(downloader, url, options: [.processor(CountingProcessor("same"))])

        // When the exchange answers
        try await transport.nextExchange().respond(withImage: photo)

        // Then both get the one image the first caller's processor made
        #expect(try await first.image() === second.image())
    }

    @Test func aCallerJoiningMidBodySharesTheExchange() async throws {
        // Given a download whose body has begun to arrive
        let first = DownloadCall(downloader, url)
        let exchange = try await transport.nextExchange()
        try #require(try await exchange.sendHead(headers: [("Content-Length", "\(photo.count)")]))
        #expect(await exchange.sendBody(photo.prefix(100)))

        // When another caller asks for the URL, and the body ends
        let second = DownloadCall(downloader, url)
        #expect(await exchange.sendBody(photo.dropFirst(100)))
        await exchange.complete()

        // Then both get the image from the one exchange
        #expect(try await first.image().pixelWidth == 190)
        #expect(try await second.image().pixelWidth == 190)
        #expect(transport.startedCount == 1)
    }

    @Test func aCallerAfterTheDownloadEndedStartsANewExchange() async throws {
        // Given a finished download
        let first = DownloadCall(downloader, url)
        try await transport.nextExchange().respond(withImage: photo)
        _ = try await first.image()

        // When the URL is asked for again
        let second = DownloadCall(downloader, url)

        // Then a new exchange starts
        #expect(transport.startedCount == 2)
        try await transport.nextExchange().respond(withImage: photo)
        _ = try await second.image()
    }

    @Test func callersOfDifferentURLsDoNotShare() async throws {
        let other = URL(string: "https://example.com/other.png")!
        let first = DownloadCall(downloader, url)
        let second = DownloadCall(downloader, other)
        #expect(transport.exchanges.map(\.url) == [url, other])
        for exchange in transport.exchanges { exchange.respond(withImage: photo) }
        _ = try await first.image()
        _ = try await second.image()
    }

    @Test func aFailedSharedDownloadFailsEveryCaller() async throws {
        // Given three callers of one URL
        let calls = (0..<3).map { _ in DownloadCall(downloader, url) }

        // When the exchange breaks
        try await transport.nextExchange().fail(URLError(.networkConnectionLost))

        // Then each caller gets the transport's error
        for call in calls {
            guard case .responseError(reason: .URLSessionError(let underlying))? = try await call.error() else {
                Issue.record("expected the transport error")
                continue
            }
            #expect((underlying as? URLError)?.code == .networkConnectionLost)
        }
    }

    @Test func theDelegateHearsOncePerSharedDownload() async throws {
        // Given a delegate and two callers of one URL
        let delegate = RecordingDelegate()
        downloader.delegate = delegate
        let calls = (0..<2).map { _ in DownloadCall(downloader, url) }

        // When the exchange answers
        try await transport.nextExchange().respond(withImage: photo)
        for call in calls { _ = try await call.image() }

        // Then each delegate method was called once
        let heard = delegate.calls.withLock { $0 }
        for name in ["will", "finish", "data", "image"] {
            #expect(heard.filter { $0 == name }.count == 1, "\(name): \(heard)")
        }
    }
}
