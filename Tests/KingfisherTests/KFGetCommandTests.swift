import Foundation
import Testing
@testable import Kingfisher
@testable import KingfisherImaging

/// `kf get` and `kf prefetch`, run as a user runs them, against the loopback server.
@Suite struct KFGetCommandTests {
    let runner = KFCommandTests()

    /// Runs kf on a dispatch thread: a test waiting for a process must not hold one of the few
    /// cooperative threads the other tests need.
    func kf(_ arguments: String...) async throws -> KFCommandTests.Run {
        let runner = self.runner
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runner.run(KFCommandTests.executable.path, arguments) })
            }
        }
    }

    func withServer(_ body: (TestHTTPServer, String) async throws -> Void) async throws {
        let server = try await TestHTTPServer()
        let directory = try runner.temporaryDirectory()
        try await body(server, directory.path)
        await server.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    func json(_ run: KFCommandTests.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test func getLoadsThenHitsTheDiskCache() async throws {
        try await withServer { server, directory in
            let url = server.url("/image/photo.png").absoluteString
            let first = try await kf("get", url, "--directory", directory, "--processor", "resize(50x50,fit)", "--json")
            #expect(first.status == 0, "\(first.stderr)")
            let report = try json(first)
            #expect(report["cacheType"] as? String == "none" && report["width"] as? Int == 50 && report["format"] as? String == "PNG")
            #expect((report["bytes"] as? Int ?? 0) > 0 && report["ms"] is Double)
            let second = try await kf("get", url, "--directory", directory, "--processor", "resize(50x50,fit)")
            #expect(second.status == 0 && second.stdout.hasPrefix("disk  50x33  PNG"), "\(second.stdout)")
            #expect(server.requests("/image/photo.png") == 1)

            let output = directory + "/out.webp"
            let written = try await kf("get", url, "--directory", directory, "--force-refresh", "--output", output)
            #expect(written.status == 0 && server.requests("/image/photo.png") == 2)
            #expect(try KingfisherImage.decode(data: Data(contentsOf: URL(fileURLWithPath: output))).format == .WebP)
        }
    }

    @Test func getFailuresExitWithOneLine() async throws {
        try await withServer { server, directory in
            let missing = try await kf("get", server.url("/status/404").absoluteString, "--directory", directory)
            #expect(missing.status == 69 && missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("404"))
            let notCached = try await kf("get", server.url("/image/photo.gif").absoluteString, "--directory", directory, "--only-from-cache")
            #expect(notCached.status == 66 && server.requests("/image/photo.gif") == 0)
            let html = try await kf("get", server.url("/html").absoluteString, "--directory", directory)
            #expect(html.status == 65 && html.stderr.contains("text/html"))
            let badBase64 = try await kf("get", "data:image/png;base64,!!!", "--directory", directory)
            #expect(badBase64.status == 65, "\(badBase64.stderr)")
            let noFile = try await kf("get", directory + "/missing.png", "--directory", directory)
            #expect(noFile.status == 66, "\(noFile.stderr)")
            let usage = try await kf("get", "x", "--retry", "lots")
            #expect(usage.status == 64)
        }
    }

    @Test func getSendsHeadersRetriesAndFallsBack() async throws {
        try await withServer { server, directory in
            let flaky = server.url("/flaky/1/photo.png").absoluteString
            let retried = try await kf("get", flaky, "--directory", directory, "--retry", "2,0", "--header", "X-Token: abc")
            #expect(retried.status == 0, "\(retried.stderr)")
            #expect(server.requests("/flaky/1/photo.png") == 2)
            #expect(server.headers("/flaky/1/photo.png")["x-token"] == "abc")

            let fallback = try await kf("get", server.url("/status/500").absoluteString, "--directory", directory,
                                         "--alternative", server.url("/image/photo.gif").absoluteString, "--json")
            #expect(fallback.status == 0)
            #expect(try json(fallback)["format"] as? String == "GIF")
        }
    }

    @Test func getReadsFilesAndDataURLs() async throws {
        try await withServer { _, directory in
            let file = Fixtures.directory.appendingPathComponent("photo.png").path
            let local = try await kf("get", file, "--directory", directory, "--json")
            #expect(local.status == 0)
            #expect(try json(local)["width"] as? Int == 190)
            let dataURL = "data:image/gif;base64," + (try Fixtures.data("photo.gif")).base64EncodedString()
            let inline = try await kf("get", dataURL, "--directory", directory, "--json")
            #expect(inline.status == 0)
            #expect(try json(inline)["format"] as? String == "GIF")
        }
    }

    @Test func prefetchCountsAndExitStatus() async throws {
        try await withServer { server, directory in
            let good = ["/image/photo.png", "/image/photo.gif", "/image/orientation_1.jpg"].map { server.url($0).absoluteString }
            let list = directory + "/list.txt"
            try (good.joined(separator: "\n") + "\n# a comment\n").write(toFile: list, atomically: true, encoding: .utf8)
            let first = try await kf("prefetch", "--input", list, "--directory", directory, "--concurrency", "2")
            #expect(first.status == 0 && first.stdout.contains("completed 3, skipped 0, failed 0"), "\(first.stdout)\(first.stderr)")
            let again = try await kf("prefetch", good[0], server.url("/status/503").absoluteString, "--directory", directory)
            #expect(again.status == 69 && again.stdout.contains("completed 0, skipped 1, failed 1"))
            #expect(again.stderr.contains("failed: \(server.url("/status/503").absoluteString)"))
        }
    }
}
