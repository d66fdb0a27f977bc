// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server misbehaving mid-response: each fault ends in a clear KingfisherError, nothing is
/// cached, and the same downloader and manager go on serving other requests.
@Suite(.timeLimit(.minutes(10))) struct DownloadFaultTests {
    static let faults = ["/reset/photo.png", "/overlong/photo.png", "/underlong/photo.png", "/noresponse"]

    /// The transport error a downloader reports for a broken exchange.
    func transportError(_ error: KingfisherError?) -> (any Error)? {
        guard case .responseError(reason: .URLSessionError(let underlying))? = error else { return nil }
        return underlying
    }

    @Test(arguments: ["/reset/photo.png", "/overlong/photo.png", "/noresponse"])
    func brokenExchangesFailWithTheTransportError(_ path: String) async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "faults")
            // The error's kind, not the wall clock, shows it came before the idle timeout.
            downloader.downloadTimeout = 60
            let failure = await kingfisherError { _ = try await downloader.downloadImage(with: server.url(path)) }
            let underlying = transportError(failure)
            #expect(underlying != nil, "\(path): \(String(describing: failure))")
            #expect(
                (underlying as? URLError)?.code == .networkConnectionLost,
                "\(path): the broken exchange, not a timeout: \(String(describing: underlying))")
            // One line naming the URL, the peer and, when the body had started, how much came.
            let message = failure?.localizedDescription ?? ""
            #expect(message.contains(server.url(path).absoluteString) && message.contains("127.0.0.1:\(server.port)"), "\(message)")
            if path != "/noresponse" {
                #expect(message.contains("bytes of the body"), "\(message)")
            }
            // A connection closed before any response is tried once more (it may have been a stale
            // pooled connection); a response cut short is not.
            #expect(server.requests(path.hasPrefix("/reset") ? "/reset/photo.png" : path) == (path == "/noresponse" ? 2 : 1))
        }
    }

    @Test(arguments: ["/reset/photo.png", "/overlong/photo.png", "/noresponse"])
    func theDownloaderServesAfterABrokenExchange(_ path: String) async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "faults")
            _ = await kingfisherError { _ = try await downloader.downloadImage(with: server.url(path)) }
            let next = try await downloader.downloadImage(with: server.url("/image/photo.png"))
            #expect(next.image.pixelWidth == 190)
        }
    }

    /// A receiver that decides on the head only when told, recording what it hears.
    final class LateDecidingReceiver: TransportExchangeReceiver {
        struct Heard: Sendable {
            var proceed: (@Sendable (Bool) -> Void)?
            var bytes = 0
            var completion: String?
            var completedBeforeDeciding = false
            var decided = false
        }
        let heard = WaitableState(Heard())

        func didReceiveResponse(_ response: TransportResponse, proceed: @escaping @Sendable (Bool) -> Void) {
            heard.update { $0.proceed = proceed }
        }
        func didReceiveData(_ bytes: UnsafeRawBufferPointer) -> Bool {
            heard.update { $0.bytes += bytes.count }
            return true
        }
        func didComplete(with error: (any Error)?) {
            heard.update { heard in
                heard.completion = error.map { TransportErrorText.describe($0) } ?? "complete"
                heard.completedBeforeDeciding = !heard.decided
            }
        }
        func decide(_ proceed: Bool) {
            let decision = heard.update { heard in
                heard.decided = true
                return heard.proceed
            }
            decision?(proceed)
        }
    }

    /// A body cut short while the receiver is still deciding on the head is handed over once it
    /// decides, then the failure: the bytes that arrived are counted, not dropped.
    @Test func aBodyCutShortWhileTheHeadIsDecidedKeepsItsBytes() async throws {
        try await withTestHTTPServer { server in
            let size = try Fixtures.data("photo.png").count
            let receiver = LateDecidingReceiver()
            let exchange = AsyncHTTPClientTransport.shared.startExchange(
                URLRequest(url: server.url("/overlong/photo.png")), acceptingUntrustedCertificates: false, receiver: receiver)
            _ = try await receiver.heard.wait { $0.proceed != nil }
            // The whole body left the server, and the server closed the connection.
            try await server.wait { ($0.bodyBytesSent["/overlong/photo.png"] ?? 0) == size }
            receiver.decide(true)
            let heard = try await receiver.heard.wait { $0.completion != nil }
            #expect(!heard.completedBeforeDeciding)
            #expect(heard.bytes == size)
            #expect(heard.completion?.contains("closed the connection before the end of the response") == true, "\(heard.completion ?? "")")
            exchange.cancel()
        }
    }

    /// The downloader's line names the bytes that arrived.
    @Test func aBodyCutShortSaysHowMuchArrived() async throws {
        try await withTestHTTPServer { server in
            let size = try Fixtures.data("photo.png").count
            let failure = await kingfisherError {
                _ = try await ImageDownloader(name: "faults").downloadImage(with: server.url("/overlong/photo.png"))
            }
            let text = failure.flatMap { transportError($0) }.map { TransportErrorText.describe($0) } ?? ""
            #expect(text.hasSuffix("after \(size) of \(size + 1000) bytes of the body"), "\(text)")
        }
    }

    @Test func aContentLengthShorterThanTheBodyGivesATruncatedImage() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "faults")
            // The client reads what Content-Length says: half a PNG, which does not decode.
            let failure = await kingfisherError { _ = try await downloader.downloadImage(with: server.url("/underlong/photo.png")) }
            guard let decoding = failure?.decodingFailure else {
                Issue.record("\(String(describing: failure))")
                return
            }
            #expect(decoding.reason == .truncatedData(format: .PNG))
        }
    }

    @Test func theRestOfAnUnderlongBodyIsNotReadAsTheNextResponse() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "faults")
            _ = await kingfisherError { _ = try await downloader.downloadImage(with: server.url("/underlong/photo.png")) }
            for _ in 0..<3 {
                let next = try await downloader.downloadImage(with: server.url("/image/photo.png"))
                #expect(next.image.pixelWidth == 190)
            }
        }
    }

    @Test func aTrickleEndsAtTheDurationLimit() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "trickle")
            downloader.maxDownloadDuration = 1.5
            // One byte every 200 ms never trips the 15 s idle timeout.
            let failure = await kingfisherError {
                _ = try await downloader.downloadImage(with: server.url("/slow/photo.png?chunk=1&interval=200"))
            }
            #expect((transportError(failure) as? URLError)?.code == .timedOut, "\(String(describing: failure))")
            // Which limit ended it comes from the message, not the clock.
            #expect(
                String(describing: failure).contains("ran past the 1.5 s limit on a download's duration"), "\(String(describing: failure))")
            // The connection is given up: the server sees it close mid-body.
            try await server.wait { $0.aborted["/slow/photo.png", default: 0] >= 1 }
            #expect(server.aborted("/slow/photo.png") == 1)
            let next = try await downloader.downloadImage(with: server.url("/image/photo.png"))
            #expect(next.image.pixelWidth == 190)
        }
    }

    /// Runs `body` with a manager whose cache lives in a temporary directory.
    func withManager(_ body: (TestHTTPServer, KingfisherManager, ImageCache) async throws -> Void) async throws {
        try await withTestHTTPServerAndDirectory { server, directory in
            let cache = try ImageCache(name: "faults", cacheDirectoryURL: directory)
            try await body(server, KingfisherManager(downloader: ImageDownloader(name: "faults"), cache: cache), cache)
        }
    }

    @Test(arguments: faults)
    func faultsCacheNothing(_ path: String) async throws {
        try await withManager { server, manager, cache in
            let url = server.url(path)
            let failure = await kingfisherError { _ = try await manager.retrieveImage(with: url, options: [.waitForCache]) }
            #expect(failure != nil, "\(path)")
            #expect(cache.imageCachedType(forKey: url.cacheKey) == .none, "\(path) cached")
            let diskFiles = try FileManager.default.contentsOfDirectory(atPath: cache.diskStorage.directoryURL.path)
            #expect(diskFiles.isEmpty, "\(diskFiles)")
        }
    }

    @Test func theManagerGoesOnAfterFaults() async throws {
        try await withManager { server, manager, cache in
            for path in Self.faults {
                _ = await kingfisherError { _ = try await manager.retrieveImage(with: server.url(path), options: [.waitForCache]) }
            }
            let good = server.url("/image/photo.png")
            let result = try await manager.retrieveImage(with: good, options: [.waitForCache])
            #expect(result.image.pixelWidth == 190)
            #expect(cache.imageCachedType(forKey: good.cacheKey) == .memory)
            #expect(cache.isCached(forKey: good.cacheKey))
        }
    }
}
