// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Network failures carry typed values (what, which host and port, how far, which limit) and
/// still reach callers as the `URLError` URLSession would give.
@Suite(.timeLimit(.minutes(5))) struct DownloadFailureTests {
    func failure(_ downloader: ImageDownloader, _ url: URL) async -> KingfisherError? {
        await kingfisherError { _ = try await downloader.downloadImage(with: url) }
    }

    @Test func aRefusedConnectionNamesItsHostAndPort() async throws {
        try await withRefusingPort { port in
            let url = URL(string: "http://127.0.0.1:\(port)/photo.png")!
            let error = await failure(ImageDownloader(name: "refused"), url)
            let failure = try #require(error?.downloadFailure, "\(String(describing: error))")
            #expect(failure.reason == .connectionRefused && failure.host == "127.0.0.1" && failure.port == port)
            #expect(failure.code == .cannotConnectToHost && failure.url == url)
            guard case .responseError(reason: .URLSessionError(let underlying as URLError)) = error else {
                Issue.record("not a URLError: \(String(describing: error))")
                return
            }
            #expect(underlying.code == .cannotConnectToHost, "Kingfisher code checks the URLError's code")
        }
    }

    @Test func aBodyOverTheLimitSaysTheLimitAndTheBytes() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "limited")
            downloader.maxResponseDataSize = 1000
            let error = await failure(downloader, server.url("/image/photo.png"))
            let failure = try #require(error?.downloadFailure)
            guard case .responseTooLarge(let limit, let received) = failure.reason else {
                Issue.record("\(failure)")
                return
            }
            #expect(limit == 1000 && received > 1000)
            #expect(error?.isDownloadLimit == true)
        }
    }

    @Test func aBreakMidBodySaysHowFarTheBodyGot() async throws {
        try await withTestHTTPServer { server in
            let error = await failure(ImageDownloader(name: "broken"), server.url("/overlong/photo.png"))
            let failure = try #require(error?.downloadFailure, "\(String(describing: error))")
            let size = try Fixtures.data("photo.png").count
            #expect(failure.bodyBytesReceived == size && failure.expectedBodyBytes == Int64(size + 1000), "\(failure)")
            #expect(failure.description.hasSuffix("after \(size) of \(size + 1000) bytes of the body"))
        }
    }

    @Test func aTimeoutSaysWhichLimitAndHowFar() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "idle")
            downloader.downloadTimeout = 0.3
            let error = await failure(downloader, server.url("/hang"))
            let failure = try #require(error?.downloadFailure)
            guard case .timedOut(let timeout) = failure.reason, case .idle(let limit, _) = timeout.limit else {
                Issue.record("\(failure)")
                return
            }
            #expect(limit == 0.3 && !timeout.headReceived && timeout.bodyBytes == 0)
            #expect(failure.code == .timedOut)
        }
    }
}
