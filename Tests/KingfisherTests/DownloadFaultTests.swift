import Foundation
import Testing
@testable import Kingfisher
@testable import KingfisherImaging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server misbehaving mid-response: each fault ends in a clear KingfisherError, nothing is
/// cached, and the same downloader and manager go on serving other requests.
@Suite struct DownloadFaultTests {
    func error(_ body: () async throws -> Void) async -> KingfisherError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? KingfisherError
        }
    }

    /// The transport error a downloader reports for a broken exchange.
    func transportError(_ error: KingfisherError?) -> (any Error)? {
        guard case .responseError(reason: .URLSessionError(let underlying))? = error else { return nil }
        return underlying
    }

    @Test(arguments: ["/reset/photo.png", "/overlong/photo.png", "/noresponse"])
    func brokenExchangesFailWithTheTransportError(_ path: String) async throws {
        let server = try await TestHTTPServer()
        let downloader = ImageDownloader(name: "faults")
        let start = ContinuousClock.now
        let failure = await error { _ = try await downloader.downloadImage(with: server.url(path)) }
        let underlying = transportError(failure)
        #expect(underlying != nil, "\(path): \(String(describing: failure))")
        #expect((underlying as? URLError)?.code != .timedOut, "\(path): the broken exchange, not a timeout")
        #expect(ContinuousClock.now - start < .seconds(10) * SanitizerAllowance.time, "\(path): reported at once")
        // A connection closed before any response is tried once more (it may have been a stale
        // pooled connection); a response cut short is not.
        #expect(server.requests(path.hasPrefix("/reset") ? "/reset/photo.png" : path) == (path == "/noresponse" ? 2 : 1))
        // The downloader keeps serving.
        let next = try await downloader.downloadImage(with: server.url("/image/photo.png"))
        #expect(next.image.pixelWidth == 190)
        await server.shutdown()
    }

    @Test func aContentLengthShorterThanTheBodyGivesATruncatedImage() async throws {
        let server = try await TestHTTPServer()
        let downloader = ImageDownloader(name: "faults")
        // The client reads what Content-Length says: half a PNG, which does not decode.
        let failure = await error { _ = try await downloader.downloadImage(with: server.url("/underlong/photo.png")) }
        guard case .responseError(reason: .notAnImage(_, _, let reason))? = failure else {
            Issue.record("\(String(describing: failure))"); return
        }
        #expect(reason == .truncatedData(format: .PNG))
        // The rest of that body must not be read as the next response on the connection.
        for _ in 0..<3 {
            let next = try await downloader.downloadImage(with: server.url("/image/photo.png"))
            #expect(next.image.pixelWidth == 190)
        }
        await server.shutdown()
    }

    @Test func aTrickleEndsAtTheDurationLimit() async throws {
        let server = try await TestHTTPServer()
        let downloader = ImageDownloader(name: "trickle")
        downloader.maxDownloadDuration = 1.5
        let start = ContinuousClock.now
        // One byte every 200 ms never trips the 15 s idle timeout.
        let failure = await error {
            _ = try await downloader.downloadImage(with: server.url("/slow/photo.png?chunk=1&interval=200"))
        }
        let elapsed = ContinuousClock.now - start
        #expect((transportError(failure) as? URLError)?.code == .timedOut, "\(String(describing: failure))")
        #expect(elapsed >= .seconds(1.4) && elapsed < .seconds(10) * SanitizerAllowance.time, "\(elapsed)")
        for _ in 0..<250 where server.aborted("/slow/photo.png") == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.aborted("/slow/photo.png") == 1, "the connection was given up")
        let next = try await downloader.downloadImage(with: server.url("/image/photo.png"))
        #expect(next.image.pixelWidth == 190)
        await server.shutdown()
    }

    @Test func faultsCacheNothingAndTheManagerGoesOn() async throws {
        let server = try await TestHTTPServer()
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let cache = try ImageCache(name: "faults", cacheDirectoryURL: directory.url)
        let manager = KingfisherManager(downloader: ImageDownloader(name: "faults"), cache: cache)
        for path in ["/reset/photo.png", "/overlong/photo.png", "/underlong/photo.png", "/noresponse"] {
            let url = server.url(path)
            let failure = await error { _ = try await manager.retrieveImage(with: url, options: [.waitForCache]) }
            #expect(failure != nil, "\(path)")
            #expect(cache.imageCachedType(forKey: url.cacheKey) == .none, "\(path) cached")
        }
        let diskFiles = try FileManager.default.contentsOfDirectory(atPath: cache.diskStorage.directoryURL.path)
        #expect(diskFiles.isEmpty, "\(diskFiles)")
        let good = server.url("/image/photo.png")
        let result = try await manager.retrieveImage(with: good, options: [.waitForCache])
        #expect(result.image.pixelWidth == 190)
        #expect(cache.imageCachedType(forKey: good.cacheKey) == .memory)
        #expect(cache.isCached(forKey: good.cacheKey))
        await server.shutdown()
    }
}
