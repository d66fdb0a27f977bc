// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Broken downloads resumed with `Range` / `If-Range` by the next attempt.
@Suite(.timeLimit(.minutes(10))) struct ResumableDownloadTests {
    let retryOnce: KingfisherOptionsInfo = [.retryStrategy(DelayRetryStrategy(maxRetryCount: 1, retryInterval: .seconds(0)))]

    @Test func aRetryAsksOnlyForTheRest() async throws {
        try await withTestHTTPServerAndDirectory { server, directory in
            let manager = KingfisherManager(
                downloader: ImageDownloader(name: "resume"),
                cache: try ImageCache(name: "resume", cacheDirectoryURL: directory))
            let path = "/resumable/photo.png"
            let result = try await manager.retrieveImage(with: server.url(path), options: retryOnce)
            let fixture = try Fixtures.data("photo.png")
            #expect(result.image.pixelWidth == 190 && result.data() == fixture)
            #expect(server.statuses(path) == [200, 206] && server.bodyBytesSent(path) == fixture.count)
            #expect(result.metrics?.httpStatusCode == 206)
        }
    }

    @Test func aFullResponseStartsOver() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "resume")
            // Kept bytes of an image the origin has since replaced: it ignores the range.
            let url = server.url("/cacheable/photo.png")
            let head = TransportResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: [("ETag", "\"old\""), ("Accept-Ranges", "bytes")])
            downloader.resumableData.keep(Data(repeating: 7, count: 100), of: head, for: url, resumedValidator: nil)
            let result = try await downloader.downloadImage(with: url)
            #expect(result.originalData == (try Fixtures.data("photo.png")))
            #expect(server.headers("/cacheable/photo.png")["if-range"] == "\"old\"")
            #expect(downloader.resumableData.take(for: url) == nil)
        }
    }

    @Test func resumingCanBeTurnedOff() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "resume")
            downloader.resumableDataLimit = 0
            let manager = KingfisherManager(downloader: downloader, cache: ImageCache(name: "resume-off-\(UUID())"))
            let path = "/resumable/photo.png"
            _ = try await manager.retrieveImage(with: server.url(path), options: retryOnce + [.cacheMemoryOnly])
            #expect(server.statuses(path) == [200, 200] && server.headers(path)["range"] == nil)
        }
    }

    @Test func onlyResumableResponsesAreKept() {
        let store = ResumableDataStore(limit: 1000)
        let url = URL(string: "http://example.com/a.png")!
        func head(_ fields: [(String, String)], status: Int = 200) -> TransportResponse {
            TransportResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
        }
        let bytes = Data(repeating: 1, count: 10)
        store.keep(bytes, of: head([("ETag", "\"a\"")]), for: url, resumedValidator: nil)
        #expect(store.take(for: url) == nil, "no Accept-Ranges")
        store.keep(bytes, of: head([("ETag", "W/\"a\""), ("Accept-Ranges", "bytes")]), for: url, resumedValidator: nil)
        #expect(store.take(for: url) == nil, "a weak tag cannot be an If-Range")
        store.keep(
            Data(repeating: 1, count: 1001), of: head([("ETag", "\"a\""), ("Accept-Ranges", "bytes")]), for: url, resumedValidator: nil)
        #expect(store.take(for: url) == nil, "over the limit")
        store.keep(
            bytes, of: head([("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"), ("Accept-Ranges", "bytes")]), for: url,
            resumedValidator: nil)
        #expect(store.take(for: url)?.validator == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(store.take(for: url) == nil, "taken once")
    }

    @Test func aRangeThatDoesNotContinueIsRefused() {
        let entry = ResumableDataStore.Entry(data: Data(count: 50), validator: "\"a\"", storedAt: .now)
        let url = URL(string: "http://example.com/a.png")!
        func partial(_ range: String) -> TransportResponse {
            TransportResponse(url: url, statusCode: 206, httpVersion: "HTTP/1.1", headerFields: [("Content-Range", range)])
        }
        #expect(ResumableDataStore.continues(entry, with: partial("bytes 50-99/100")))
        #expect(!ResumableDataStore.continues(entry, with: partial("bytes 0-99/100")))
        #expect(!ResumableDataStore.continues(entry, with: partial("items 50-99/100")))
    }
}
