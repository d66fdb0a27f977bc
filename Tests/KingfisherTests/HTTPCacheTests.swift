// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// ``HTTPCachePolicy/followHeaders`` against the loopback server: freshness, revalidation with
/// `304`, `no-store`, coalescing, and what a stale image does when the origin is gone.
@Suite(.timeLimit(.minutes(10))) struct HTTPCacheTests {
    func withSetup(_ body: (ManagerSetup) async throws -> Void) async throws {
        try await withManagerSetup(name: "http", body)
    }

    let following: KingfisherOptionsInfo = [.httpCachePolicy(.followHeaders), .waitForCache]

    /// A `/cacheable/photo.png` URL whose responses carry `cacheControl`.
    func url(_ setup: ManagerSetup, _ cacheControl: String, fixture: String = "photo.png") -> URL {
        let encoded = cacheControl.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return setup.server.url("/cacheable/\(fixture)?cc=\(encoded)")
    }

    @Test func aFreshResponseIsUsedWithoutARequest() async throws {
        try await withSetup { setup in
            let url = url(setup, "max-age=3600")
            let first = try await setup.manager.retrieveImage(with: url, options: following)
            let second = try await setup.manager.retrieveImage(with: url, options: following)
            setup.cache.clearMemoryCache()
            let third = try await setup.manager.retrieveImage(with: url, options: following)
            #expect(first.cacheType == .none && second.cacheType == .memory && third.cacheType == .disk)
            #expect(setup.server.statuses("/cacheable/photo.png") == [200])
        }
    }

    @Test func aStaleResponseIsRevalidatedAndA304DownloadsNothing() async throws {
        try await withSetup { setup in
            let url = url(setup, "max-age=0")
            let fixtureSize = try Fixtures.data("photo.png").count
            _ = try await setup.manager.retrieveImage(with: url, options: following)
            let second = try await setup.manager.retrieveImage(with: url, options: following)
            #expect(second.cacheType == .memory && second.image.pixelWidth == 190)
            #expect(setup.server.statuses("/cacheable/photo.png") == [200, 304])
            #expect(setup.server.headers("/cacheable/photo.png")["if-none-match"] == "\"photo.png\"")
            #expect(setup.server.bodyBytesSent("/cacheable/photo.png") == fixtureSize)
        }
    }

    @Test func aRevalidationWithOnlyADateSendsIfModifiedSince() async throws {
        try await withSetup { setup in
            // no-cache: stale at once, whatever the heuristic makes of the date.
            let date = HTTPDate.format(Date())
            let lm = date.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let url = setup.server.url("/cacheable/photo.png?cc=no-cache&lm=\(lm)")
            // The server also sends an ETag: drop it from the stored record to test the date alone.
            _ = try await setup.manager.retrieveImage(with: url, options: following)
            var record = try #require(setup.cache.httpRecords.record(forKey: url.cacheKey, disk: setup.cache.diskStorage))
            record.fields["etag"] = nil
            setup.cache.httpRecords.store(record, forKey: url.cacheKey, disk: setup.cache.diskStorage, toDisk: true, expiration: nil)
            let second = try await setup.manager.retrieveImage(with: url, options: following)
            #expect(second.cacheType == .memory)
            #expect(setup.server.headers("/cacheable/photo.png")["if-modified-since"] == date)
            #expect(setup.server.statuses("/cacheable/photo.png") == [200, 304])
        }
    }

    @Test func aChangedImageReplacesTheCachedOneAndItsVariants() async throws {
        try await withSetup { setup in
            let url = url(setup, "max-age=0")
            let small = CountingProcessor("small")
            _ = try await setup.manager.retrieveImage(with: url, options: following)
            _ = try await setup.manager.retrieveImage(with: url, options: following + [.processor(small)])
            setup.server.replaceFixture(of: "/cacheable/photo.png", with: "orientation_1.jpg")
            let changed = try await setup.manager.retrieveImage(with: url, options: following)
            #expect(changed.cacheType == .none && changed.image.pixelWidth == 48)
            #expect(setup.server.statuses("/cacheable/photo.png") == [200, 304, 200])
            // The variant made from the replaced image is gone, memory and disk.
            #expect(setup.cache.imageCachedType(forKey: url.cacheKey, processorIdentifier: "small") == .none)
        }
    }

    @Test func a304KeepsEveryVariantWithoutProcessingAgain() async throws {
        try await withSetup { setup in
            let url = url(setup, "max-age=0")
            let small = CountingProcessor("small")
            let other = CountingProcessor("other")
            _ = try await setup.manager.retrieveImage(with: url, options: following + [.processor(small), .cacheOriginalImage])
            _ = try await setup.manager.retrieveImage(with: url, options: following + [.processor(other), .cacheOriginalImage])
            setup.cache.clearMemoryCache()
            let again = try await setup.manager.retrieveImage(with: url, options: following + [.processor(small)])
            #expect(again.cacheType == .disk && again.image.pixelWidth == 10)
            #expect(small.runs == 1 && other.runs == 1)
            let record = try #require(setup.cache.httpRecords.record(forKey: url.cacheKey, disk: setup.cache.diskStorage))
            #expect(record.variants == ["small", "other", ""])
        }
    }

    @Test func noStoreIsNeverWrittenToDisk() async throws {
        try await withSetup { setup in
            let url = url(setup, "no-store")
            let first = try await setup.manager.retrieveImage(with: url, options: following)
            #expect(first.cacheType == .none)
            #expect(try setup.cache.diskStorage.statistics().files == 0)
            let second = try await setup.manager.retrieveImage(with: url, options: following)
            #expect(second.cacheType == .none)
            #expect(setup.server.statuses("/cacheable/photo.png") == [200, 200])
        }
    }

    @Test func noCacheRevalidatesEveryUse() async throws {
        try await withSetup { setup in
            let url = url(setup, "no-cache, max-age=3600")
            for _ in 0..<3 { _ = try await setup.manager.retrieveImage(with: url, options: following) }
            #expect(setup.server.statuses("/cacheable/photo.png") == [200, 304, 304])
        }
    }

    @Test func concurrentRevalidationsShareOneRequest() async throws {
        try await withSetup { setup in
            let url = url(setup, "max-age=0")
            let manager = setup.manager
            let options = following
            _ = try await manager.retrieveImage(with: url, options: options)
            // Held back, so that every caller joins the one conditional request.
            let results = try await withThrowingTaskGroup(of: CacheType.self) { group in
                for _ in 0..<8 { group.addTask { try await manager.retrieveImage(with: url, options: options).cacheType } }
                return try await group.reduce(into: [CacheType]()) { $0.append($1) }
            }
            #expect(results.count == 8 && results.allSatisfy(\.cached))
            #expect(setup.server.statuses("/cacheable/photo.png").filter { $0 == 304 }.count < 8)
        }
    }

    @Test func theDefaultPolicyIgnoresTheHeaders() async throws {
        try await withSetup { setup in
            let url = url(setup, "no-cache, max-age=0")
            _ = try await setup.manager.retrieveImage(with: url, options: [.waitForCache])
            let second = try await setup.manager.retrieveImage(with: url)
            #expect(second.cacheType == .memory)
            #expect(setup.server.statuses("/cacheable/photo.png") == [200])
        }
    }

    @Test func aStaleImageStandsInWhenTheOriginIsGoneUnlessMustRevalidate() async throws {
        try await withTemporaryDirectory { directory in
            let cache = try ImageCache(name: "http", cacheDirectoryURL: directory)
            let manager = KingfisherManager(downloader: ImageDownloader(name: "http"), cache: cache)
            let image = try KingfisherImage.decode(data: try Fixtures.data("photo.png"))
            // Cached from an origin that has since gone (nothing listens on port 1).
            func cached(_ path: String, cacheControl: String) async throws -> URL {
                let url = URL(string: "http://127.0.0.1:1\(path)")!
                try await cache.store(image, forKey: url.cacheKey)
                let response = TransportResponse(
                    url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                    headerFields: [("Cache-Control", cacheControl), ("ETag", "\"a\"")])
                var record = HTTPCacheRecord(response: response, requestTime: Date(), responseTime: Date())
                record.variants = [""]
                cache.httpRecords.store(record, forKey: url.cacheKey, disk: cache.diskStorage, toDisk: true, expiration: nil)
                return url
            }
            let lenient = try await cached("/lenient.png", cacheControl: "max-age=0")
            let strict = try await cached("/strict.png", cacheControl: "max-age=0, must-revalidate")
            let stale = try await manager.retrieveImage(with: lenient, options: following)
            #expect(stale.cacheType == .memory)
            let error = await #expect(throws: KingfisherError.self) {
                _ = try await manager.retrieveImage(with: strict, options: following)
            }
            guard case .responseError(reason: .URLSessionError(let underlying)) = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect((underlying as? URLError)?.code == .cannotConnectToHost)
        }
    }
}

/// Freshness arithmetic and header parsing, without a network.
@Suite struct HTTPCacheRecordTests {
    func response(_ fields: [(String, String)]) -> TransportResponse {
        TransportResponse(url: URL(string: "http://example.com/a.png")!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields)
    }

    let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func httpDatesParseInAllThreeForms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.format(expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("0") == nil && HTTPDate.parse("yesterday") == nil)
    }

    @Test func maxAgeWinsOverExpiresAndAgeCounts() {
        let record = HTTPCacheRecord(
            response: response([
                ("Cache-Control", "public, max-age=60"), ("Age", "50"),
                ("Expires", HTTPDate.format(now.addingTimeInterval(3600))),
            ]),
            requestTime: now, responseTime: now)
        #expect(record.freshnessLifetime == 60)
        #expect(record.isFresh(at: now.addingTimeInterval(9)) && !record.isFresh(at: now.addingTimeInterval(10)))
    }

    @Test func expiresCountsFromTheOriginsDateAndAnInvalidOneIsStale() {
        let dated = HTTPCacheRecord(
            response: response([
                ("Date", HTTPDate.format(now)),
                ("Expires", HTTPDate.format(now.addingTimeInterval(100))),
            ]),
            requestTime: now, responseTime: now)
        #expect(dated.freshnessLifetime == 100)
        let invalid = HTTPCacheRecord(response: response([("Expires", "0")]), requestTime: now, responseTime: now)
        #expect(!invalid.isFresh(at: now))
    }

    @Test func aLastModifiedAloneGivesATenthOfItsAge() {
        let record = HTTPCacheRecord(
            response: response([
                ("Date", HTTPDate.format(now)),
                ("Last-Modified", HTTPDate.format(now.addingTimeInterval(-1000))),
            ]),
            requestTime: now, responseTime: now)
        #expect(record.freshnessLifetime == 100)
    }

    @Test func aRevalidationTakesTheNewFieldsAndRestartsTheAge() {
        let record = HTTPCacheRecord(
            response: response([("Cache-Control", "max-age=10"), ("ETag", "\"a\"")]),
            requestTime: now, responseTime: now)
        let later = now.addingTimeInterval(100)
        #expect(!record.isFresh(at: later))
        let refreshed = record.revalidated(by: response([("Cache-Control", "max-age=30")]), requestTime: later, responseTime: later)
        #expect(refreshed.isFresh(at: later.addingTimeInterval(29)) && refreshed.validators?.entityTag == "\"a\"")
    }

    @Test func directivesAreReadCaseInsensitively() {
        let control = CacheControl(["No-Store, MAX-AGE=\"5\", Immutable", "must-revalidate"])
        #expect(control.noStore && control.maxAge == 5 && control.immutable && control.mustRevalidate && !control.noCache)
        #expect(CacheControl(["max-age=5, max-age=10"]).maxAge == 0)
    }
}
