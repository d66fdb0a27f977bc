// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads whose caller code (a redirect handler or block, the delegate's response check, an
/// authentication responder, an asynchronous request modifier) must run finish while every
/// thread of the cooperative pool is held, as long CPU-bound work holds it in a busy app or
/// service: the caller's code runs on the downloader's own executor, never waiting for the pool.
///
/// Each download has a 20 s duration limit: with caller code waiting for the pool, it fails with
/// that timeout, since the pool is released only once the download has ended.
@Suite(.timeLimit(.minutes(10))) struct BusyPoolDownloadTests {
    struct Unfinished: Error, CustomStringConvertible {
        let url: URL
        let seconds: TimeInterval
        var description: String { "the download of \(url) had not finished after \(seconds) s" }
    }

    /// Downloads `path` from `server` with `downloader` and `options` while the pool is held;
    /// returns the outcome, after checking that the pool was held throughout.
    private func downloadWithPoolHeld(
        _ path: String, from server: TestHTTPServer, with downloader: ImageDownloader,
        options: KingfisherOptionsInfo = []
    ) async throws -> Result<ImageLoadingResult, any Error> {
        downloader.maxDownloadDuration = 20
        let url = server.url(path)
        let hold = try await withCooperativePoolHeld { () -> Result<ImageLoadingResult, any Error> in
            let finished = DispatchSemaphore(value: 0)
            let outcome = Locked<Result<ImageLoadingResult, KingfisherError>?>(nil)
            let task = downloader.downloadImage(with: url, options: options + [.callbackQueue(.untouch)]) { result in
                outcome.withLock { $0 = result }
                finished.signal()
            }
            // A download that never started its exchange (its request modifier waiting for the
            // pool) has no duration limit running: it is given up a little after that limit.
            if finished.wait(timeout: .now() + .seconds(Int(downloader.maxDownloadDuration) + 10)) == .timedOut {
                task.cancel()
                return .failure(Unfinished(url: url, seconds: downloader.maxDownloadDuration))
            }
            return outcome.withLock { $0!.mapError { $0 } }
        }
        #expect(hold.poolWasHeld, "a task on the cooperative pool ran during the hold: the hold was incomplete")
        return hold.value
    }

    @Test func aRedirectBlockAnswersWhileThePoolIsHeld() async throws {
        try await withTestHTTPServer { server in
            let seen = Locked<[Int]>([])
            let handler = AnyRedirectHandler { _, response, newRequest, completionHandler in
                seen.withLock { $0.append(response.statusCode) }
                completionHandler(newRequest)
            }
            let result = try await downloadWithPoolHeld(
                "/redirect/2/photo.png", from: server, with: ImageDownloader(name: "busy-pool"),
                options: [.redirectHandler(handler)])
            #expect(try result.get().image.pixelWidth == 190)
            #expect(seen.withLock { $0 } == [302, 302])
        }
    }

    @Test func anAsyncRedirectHandlerAnswersWhileThePoolIsHeld() async throws {
        try await withTestHTTPServer { server in
            let handler = AnyRedirectHandler { _, _, newRequest in
                var request = newRequest
                request.setValue("async", forHTTPHeaderField: "X-Redirected-By")
                return request
            }
            let result = try await downloadWithPoolHeld(
                "/redirect/1/photo.png", from: server, with: ImageDownloader(name: "busy-pool"),
                options: [.redirectHandler(handler)])
            #expect(try result.get().image.pixelWidth == 190)
            #expect(server.headers("/image/photo.png")["x-redirected-by"] == "async")
        }
    }

    @Test func theDelegatesResponseCheckRunsWhileThePoolIsHeld() async throws {
        try await withTestHTTPServer { server in
            let delegate = RecordingDelegate()
            let downloader = ImageDownloader(name: "busy-pool")
            downloader.delegate = delegate
            let result = try await downloadWithPoolHeld("/image/photo.png", from: server, with: downloader)
            #expect(try result.get().image.pixelWidth == 190)
            #expect(delegate.calls.withLock { $0 }.contains("finish"))
        }
    }

    @Test func anAuthenticationResponderAnswersWhileThePoolIsHeld() async throws {
        try await withTestHTTPServer { server in
            let responder = AuthenticationChallengeTests.Responder(user: "ann", password: "s3cret")
            let downloader = ImageDownloader(name: "busy-pool")
            downloader.authenticationChallengeResponder = responder
            let path = "/auth/ann:s3cret/photo.png"
            let result = try await downloadWithPoolHeld(path, from: server, with: downloader)
            #expect(try result.get().image.pixelWidth == 190)
            #expect(server.statuses(path) == [401, 200])
        }
    }

    @Test func anAsyncRequestModifierRunsWhileThePoolIsHeld() async throws {
        struct Tagging: AsyncImageDownloadRequestModifier {
            let onDownloadTaskStarted: (@Sendable (DownloadTask?) -> Void)? = nil
            func modified(for request: URLRequest) async -> URLRequest? {
                var request = request
                request.setValue("modified", forHTTPHeaderField: "X-Modified")
                return request
            }
        }
        try await withTestHTTPServer { server in
            let result = try await downloadWithPoolHeld(
                "/image/photo.png", from: server, with: ImageDownloader(name: "busy-pool"),
                options: [.requestModifier(Tagging())])
            #expect(try result.get().image.pixelWidth == 190)
            #expect(server.headers("/image/photo.png")["x-modified"] == "modified")
        }
    }
}
