// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// `kf get` and `kf prefetch`, run as a user runs them, against the loopback server.
@Suite(.timeLimit(.minutes(10))) struct KFGetCommandTests {
    func kf(_ arguments: String...) async throws -> ProcessRun {
        try await ProcessRun.run(BuiltExecutable.kf.path, arguments)
    }

    /// Runs `body` with the loopback server and a temporary directory for the cache.
    func withServer(_ body: (TestHTTPServer, String) async throws -> Void) async throws {
        try await withTestHTTPServerAndDirectory { server, directory in try await body(server, directory.path) }
    }

    @Test func getReportsTheLoadedImageAsJSON() async throws {
        try await withServer { server, directory in
            let url = server.url("/image/photo.png").absoluteString
            let run = try await kf("get", url, "--directory", directory, "--processor", "resize(50x50,fit)", "--json")
            #expect(run.status == 0, "\(run.stderr)")
            let report = try run.json()
            #expect(report["cacheType"] as? String == "none" && report["width"] as? Int == 50 && report["format"] as? String == "PNG")
            #expect((report["bytes"] as? Int ?? 0) > 0 && report["ms"] is Double)
            // Processed from a cached JPEG original, the image is stored as PNG: both formats are named.
            let jpeg = server.url("/image/photo_baseline_420.jpg").absoluteString
            _ = try await kf("get", jpeg, "--directory", directory, "--cache-original")
            let processed = try await kf("get", jpeg, "--directory", directory, "--processor", "resize(50x50,fit)")
            let again = try await kf("get", jpeg, "--directory", directory, "--processor", "resize(50x50,fit)")
            #expect(processed.stdout.contains("from JPEG") && processed.stdout.contains("bytes of PNG"), "\(processed.stdout)")
            #expect(
                again.stdout.hasPrefix("disk") && again.stdout.contains("from PNG") && again.stdout.contains("bytes of PNG"),
                "\(again.stdout)")
        }
    }

    @Test func aSecondGetHitsTheDiskCache() async throws {
        try await withServer { server, directory in
            let url = server.url("/image/photo.png").absoluteString
            _ = try await kf("get", url, "--directory", directory, "--processor", "resize(50x50,fit)")
            let second = try await kf("get", url, "--directory", directory, "--processor", "resize(50x50,fit)")
            #expect(second.status == 0 && second.stdout.hasPrefix("disk  50x33  from PNG"), "\(second.stdout)")
            #expect(server.requests("/image/photo.png") == 1)
        }
    }

    @Test func getForceRefreshDownloadsAgain() async throws {
        try await withServer { server, directory in
            let url = server.url("/image/photo.png").absoluteString
            _ = try await kf("get", url, "--directory", directory)
            let again = try await kf("get", url, "--directory", directory, "--force-refresh")
            #expect(again.status == 0 && server.requests("/image/photo.png") == 2)
        }
    }

    @Test func getWritesTheOutputInTheFormatOfItsExtension() async throws {
        try await withServer { server, directory in
            let output = directory + "/out.webp"
            let written = try await kf("get", server.url("/image/photo.png").absoluteString, "--directory", directory, "--output", output)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(try KingfisherImage.decode(data: Data(contentsOf: URL(fileURLWithPath: output))).format == .WebP)
        }
    }

    @Test func getOfAMissingImageExits69WithOneLine() async throws {
        try await withServer { server, directory in
            let missing = try await kf("get", server.url("/status/404").absoluteString, "--directory", directory)
            #expect(missing.status == 69 && missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("404"))
        }
    }

    @Test func anUnsupportedSchemeIsNamedNotReadAsAPath() async throws {
        let ftp = try await ProcessRun.kf("get", "ftp://example.com/a.jpg")
        #expect(ftp.status == 69 && ftp.stderr.split(separator: "\n").count == 1, "\(ftp.stderr)")
        #expect(ftp.stderr.contains("Unsupported URL scheme \"ftp\" in ftp://example.com/a.jpg: only http and https"), "\(ftp.stderr)")
    }

    @Test func getOnlyFromCacheOfAnUncachedImageExits66() async throws {
        try await withServer { server, directory in
            let notCached = try await kf(
                "get", server.url("/image/photo.gif").absoluteString, "--directory", directory, "--only-from-cache")
            #expect(notCached.status == 66 && server.requests("/image/photo.gif") == 0)
        }
    }

    @Test func getOfAnHTMLPageExits65NamingItsType() async throws {
        try await withServer { server, directory in
            let html = try await kf("get", server.url("/html").absoluteString, "--directory", directory)
            #expect(html.status == 65 && html.stderr.contains("text/html"))
        }
    }

    @Test func getOfBadBase64Exits65() async throws {
        try await withTemporaryDirectory { directory in
            let badBase64 = try await kf("get", "data:image/png;base64,!!!", "--directory", directory.path)
            #expect(badBase64.status == 65, "\(badBase64.stderr)")
        }
    }

    @Test func getOfAMissingFileExits66() async throws {
        try await withTemporaryDirectory { directory in
            let noFile = try await kf("get", directory.path + "/missing.png", "--directory", directory.path)
            #expect(noFile.status == 66, "\(noFile.stderr)")
        }
    }

    @Test func getWithABadRetryIsAUsageError() async throws {
        let usage = try await kf("get", "x", "--retry", "lots")
        #expect(usage.status == 64)
    }

    @Test func getRetriesAFlakyServer() async throws {
        try await withServer { server, directory in
            let retried = try await kf("get", server.url("/flaky/1/photo.png").absoluteString, "--directory", directory, "--retry", "2,0")
            #expect(retried.status == 0, "\(retried.stderr)")
            #expect(server.requests("/flaky/1/photo.png") == 2)
        }
    }

    @Test func getSendsTheGivenHeaders() async throws {
        try await withServer { server, directory in
            let run = try await kf(
                "get", server.url("/image/photo.png").absoluteString, "--directory", directory, "--header", "X-Token: abc")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(server.headers("/image/photo.png")["x-token"] == "abc")
        }
    }

    @Test func getFallsBackToAnAlternative() async throws {
        try await withServer { server, directory in
            let fallback = try await kf(
                "get", server.url("/status/500").absoluteString, "--directory", directory,
                "--alternative", server.url("/image/photo.gif").absoluteString, "--json")
            #expect(fallback.status == 0)
            #expect(try fallback.json()["format"] as? String == "GIF")
        }
    }

    @Test func getReadsFiles() async throws {
        try await withTemporaryDirectory { directory in
            let file = Fixtures.directory.appendingPathComponent("photo.png").path
            let local = try await kf("get", file, "--directory", directory.path, "--json")
            #expect(local.status == 0)
            #expect(try local.json()["width"] as? Int == 190)
        }
    }

    @Test func getReadsDataURLs() async throws {
        try await withTemporaryDirectory { directory in
            let dataURL = "data:image/gif;base64," + (try Fixtures.data("photo.gif")).base64EncodedString()
            let inline = try await kf("get", dataURL, "--directory", directory.path, "--json")
            #expect(inline.status == 0)
            #expect(try inline.json()["format"] as? String == "GIF")
        }
    }

    @Test func prefetchReportsItsCounts() async throws {
        try await withServer { server, directory in
            let good = ["/image/photo.png", "/image/photo.gif", "/image/orientation_1.jpg"].map { server.url($0).absoluteString }
            let list = directory + "/list.txt"
            try (good.joined(separator: "\n") + "\n# a comment\n").write(toFile: list, atomically: true, encoding: .utf8)
            let first = try await kf("prefetch", "--input", list, "--directory", directory, "--concurrency", "2")
            #expect(first.status == 0 && first.stdout.contains("completed 3, skipped 0, failed 0"), "\(first.stdout)\(first.stderr)")
        }
    }

    @Test func prefetchWithAFailureExits69NamingIt() async throws {
        try await withServer { server, directory in
            let good = server.url("/image/photo.png").absoluteString
            let bad = server.url("/status/503").absoluteString
            _ = try await kf("get", good, "--directory", directory)
            let again = try await kf("prefetch", good, bad, "--directory", directory)
            #expect(again.status == 69 && again.stdout.contains("completed 0, skipped 1, failed 1"))
            // Each failure with its reason, on one line.
            #expect(again.stderr.contains("failed: The server answered 503 for \(bad)."), "\(again.stderr)")
            // And as JSON.
            let json = try await kf("prefetch", good, bad, "--directory", directory, "--json")
            struct Report: Decodable {
                struct Failure: Decodable {
                    var source: String
                    var reason: String
                }
                var completed: [String], skipped: [String], failed: [Failure]
            }
            let report = try JSONDecoder().decode(Report.self, from: Data(json.stdout.utf8))
            #expect(json.status == 69 && report.skipped == [good] && report.completed.isEmpty)
            #expect(report.failed.map(\.source) == [bad] && report.failed.first?.reason == "The server answered 503 for \(bad).")
        }
    }

    // MARK: HTTP

    @Test func getWithHTTPCacheServesFreshHitsAndRevalidatesStaleOnesWithA304() async throws {
        try await withServer { server, directory in
            // Fresh for an hour: the second run is a disk hit with no request.
            let freshPath = "/cacheable/photo.png"
            let fresh = server.url(freshPath + "?cc=max-age%3D3600").absoluteString
            let first = try await kf("get", fresh, "--directory", directory, "--http-cache")
            #expect(first.status == 0 && first.stdout.hasPrefix("none  190x127"), "\(first.stderr)")
            let hit = try await kf("get", fresh, "--directory", directory, "--http-cache")
            #expect(hit.stdout.hasPrefix("disk  190x127") && server.statuses(freshPath) == [200], "\(hit.stdout)")

            // Stale at once (max-age=0): the second run asks with the ETag, gets 304 and no body,
            // and shows what it kept.
            let stalePath = "/cacheable/photo.gif"
            let staleURL = server.url(stalePath + "?cc=max-age%3D0").absoluteString
            let stored = try await kf("get", staleURL, "--directory", directory, "--http-cache")
            #expect(stored.status == 0 && stored.stdout.hasPrefix("none"), "\(stored.stderr)")
            let stale = try await kf("get", staleURL, "--directory", directory, "--http-cache")
            #expect(stale.status == 0 && stale.stdout.hasPrefix("disk"), "\(stale.stdout) \(stale.stderr)")
            #expect(server.statuses(stalePath) == [200, 304] && server.headers(stalePath)["if-none-match"] == "\"photo.gif\"")
            #expect(server.bodyBytesSent(stalePath) == (try Fixtures.data("photo.gif")).count)
        }
    }

    @Test func getResumesABrokenDownloadWithARangeRequest() async throws {
        try await withServer { server, directory in
            let path = "/resumable/photo.png"
            let run = try await kf("get", server.url(path).absoluteString, "--directory", directory, "--retry", "1,0")
            #expect(run.status == 0 && run.stdout.hasPrefix("none  190x127"), "\(run.stderr)")
            let size = try Fixtures.data("photo.png").count
            #expect(server.statuses(path) == [200, 206])
            #expect(server.headers(path)["range"] == "bytes=\(size / 2)-" && server.headers(path)["if-range"] == "\"photo.png\"")
            #expect(server.bodyBytesSent(path) == size)
        }
    }
}
