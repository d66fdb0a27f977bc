// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `401` answered by the downloader's ``AuthenticationChallengeResponsible``, once.
@Suite(.timeLimit(.minutes(10))) struct AuthenticationChallengeTests {
    /// Answers with fixed credentials and remembers the challenges it saw.
    final class Responder: AuthenticationChallengeResponsible {
        let user: String, password: String
        let seen = Locked<[(realm: String?, method: String, previousFailures: Int)]>([])

        init(user: String, password: String) {
            self.user = user
            self.password = password
        }

        func downloader(
            _ downloader: ImageDownloader, task: DownloadTask?, didReceive challenge: URLAuthenticationChallenge
        ) async
            -> (URLSession.AuthChallengeDisposition, URLCredential?)
        {
            let space = challenge.protectionSpace
            seen.withLock { $0.append((space.realm, space.authenticationMethod, challenge.previousFailureCount)) }
            return (.useCredential, URLCredential(user: user, password: password, persistence: .forSession))
        }
    }

    /// A downloader whose challenges `responder` answers (held weakly: the caller keeps it).
    func makeDownloader(answeredBy responder: Responder) -> ImageDownloader {
        let downloader = ImageDownloader(name: "auth")
        downloader.authenticationChallengeResponder = responder
        return downloader
    }

    @Test func aResponderAnswersA401WithCredentials() async throws {
        try await withTestHTTPServer { server in
            let responder = Responder(user: "ann", password: "s3cret")
            let downloader = makeDownloader(answeredBy: responder)
            let path = "/auth/ann:s3cret/photo.png"
            let result = try await downloader.downloadImage(with: server.url(path))
            #expect(result.image.pixelWidth == 190)
            #expect(server.statuses(path) == [401, 200])
            #expect(server.headers(path)["authorization"] == "Basic " + Data("ann:s3cret".utf8).base64EncodedString())
            let seen = responder.seen.withLock { $0 }
            #expect(seen.count == 1 && seen.first?.realm == "images" && seen.first?.method == NSURLAuthenticationMethodHTTPBasic)
        }
    }

    @Test func wrongCredentialsAreTriedOnceThenTheDownloadFailsWith401() async throws {
        try await withTestHTTPServer { server in
            let responder = Responder(user: "ann", password: "wrong")
            let downloader = makeDownloader(answeredBy: responder)
            let path = "/auth/ann:s3cret/photo.png"
            let error = await #expect(throws: KingfisherError.self) { _ = try await downloader.downloadImage(with: server.url(path)) }
            guard case .responseError(reason: .invalidHTTPStatusCode(let response)) = error else {
                Issue.record("expected invalidHTTPStatusCode, got \(String(describing: error))")
                return
            }
            #expect(response.statusCode == 401 && server.statuses(path) == [401, 401])
        }
    }

    @Test func withoutAResponderA401Fails() async throws {
        try await withTestHTTPServer { server in
            let path = "/auth/ann:s3cret/photo.png"
            await #expect(throws: KingfisherError.self) {
                _ = try await ImageDownloader(name: "auth").downloadImage(with: server.url(path))
            }
            #expect(server.statuses(path) == [401])
        }
    }
}
