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

/// The downloader over the wire, against the loopback server: decoding, measuring, redirects,
/// statuses, limits, timeouts, TLS and HTTP/2, request modifiers and the delegate. (Coalescing,
/// priority and cancellation are decided by the downloader alone: ImageDownloaderCoalescingTests,
/// ImageDownloaderPriorityTests and ImageDownloaderCancellationTests run them on a
/// ControllableTransport.)
@Suite(.timeLimit(.minutes(10))) struct ImageDownloaderTests {
    /// Runs `body` with the loopback server and a fresh downloader on the default transport.
    func withServer(_ body: (TestHTTPServer, ImageDownloader) async throws -> Void) async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "test")
            // Redirect handlers and delegates run in tasks, which wait for a cooperative thread:
            // under a sanitizer that can take longer than the default 15 s idle timeout.
            downloader.downloadTimeout = 15 * Double(SanitizerAllowance.time)
            try await body(server, downloader)
        }
    }

    /// The error downloading `url` failed with.
    func failure(_ downloader: ImageDownloader, _ url: URL, options: KingfisherOptionsInfo = []) async -> KingfisherError? {
        await kingfisherError { _ = try await downloader.downloadImage(with: url, options: KingfisherParsedOptionsInfo(options)) }
    }

    @Test func aDownloadDecodesTheImage() async throws {
        try await withServer { server, downloader in
            let result = try await downloader.downloadImage(with: server.url("/image/photo.png"))
            #expect(result.image.pixelWidth == 190 && result.image.pixelHeight == 127)
            #expect(result.originalData == (try Fixtures.data("photo.png")))
            #expect(result.url == server.url("/image/photo.png"))
        }
    }

    @Test func aDownloadIsMeasured() async throws {
        try await withServer { server, downloader in
            let result = try await downloader.downloadImage(with: server.url("/image/photo.png"))
            let metrics = try #require(result.metrics)
            #expect(metrics.httpStatusCode == 200 && metrics.redirectCount == 0)
            #expect(metrics.responseBodyBytesReceived == Int64(result.originalData.count))
            #expect(metrics.totalRequestDuration >= metrics.timeToFirstByte && (metrics.downloadSpeed ?? 0) > 0)
            #expect(metrics.retrieveImageDuration.map { $0 <= metrics.totalRequestDuration } == true)
            #expect(metrics.requestBodyBytesSent == 0 && metrics.connectDuration == nil)
        }
    }

    @Test func aCancelledDownloadClosesItsConnection() async throws {
        try await withServer { server, downloader in
            // Given a download cancelled from its first progress report, so mid-body for sure
            let url = server.url("/slow/photo.png?chunk=1024&interval=50")
            let task = Locked<DownloadTask?>(nil)
            let started = downloader.downloadImage(
                with: url, options: [.callbackQueue(.untouch)],
                progressBlock: { _, _ in task.withLock { $0 }?.cancel() },
                completionHandler: { _ in })
            task.withLock { $0 = started }
            // Then the server sees the connection close before the body's end
            try await server.wait { $0.aborted["/slow/photo.png", default: 0] >= 1 }
            #expect(server.completed("/slow/photo.png") == 0)
        }
    }

    // MARK: Request modifiers

    @Test func aRequestModifierChangesTheRequest() async throws {
        try await withServer { server, downloader in
            let header = AnyModifier { request in
                var request = request
                request.setValue("kingfisher", forHTTPHeaderField: "X-Test")
                return request
            }
            _ = try await downloader.downloadImage(
                with: server.url("/image/photo.png"),
                options: KingfisherParsedOptionsInfo([.requestModifier(header)]))
            #expect(server.headers("/image/photo.png")["x-test"] == "kingfisher")
        }
    }

    @Test func anAsyncRequestModifierCanSendTheRequestElsewhere() async throws {
        try await withServer { server, downloader in
            struct Redirecting: AsyncImageDownloadRequestModifier {
                let target: URL
                let started = Locked<[URL?]>([])
                var onDownloadTaskStarted: (@Sendable (DownloadTask?) -> Void)? {
                    { [started] task in started.withLock { $0.append(task?.url) } }
                }
                func modified(for request: URLRequest) async -> URLRequest? {
                    await Task.yield()
                    var request = request
                    request.url = target
                    return request
                }
            }
            let modifier = Redirecting(target: server.url("/image/photo.gif"))
            let result = try await downloader.downloadImage(with: server.url("/image/nothing.png"), options: [.requestModifier(modifier)])
            #expect(result.image.format == .GIF)
            #expect(server.requests("/image/nothing.png") == 0)
            #expect(modifier.started.withLock { $0 } == [server.url("/image/nothing.png")], "told once, with the caller's task")
        }
    }

    @Test func aRequestModifierReturningNilFailsWithEmptyRequest() async throws {
        try await withServer { server, downloader in
            let error = await failure(downloader, server.url("/image/photo.png"), options: [.requestModifier(AnyModifier { _ in nil })])
            guard case .requestError(reason: .emptyRequest)? = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            #expect(server.totalRequests == 0)
        }
    }

    // MARK: Redirects

    @Test func redirectsAreFollowed() async throws {
        try await withServer { server, downloader in
            let result = try await downloader.downloadImage(with: server.url("/redirect/3/photo.png"))
            #expect(result.image.pixelWidth == 190 && result.metrics?.redirectCount == 3)
        }
    }

    @Test func aRedirectHandlerChangesTheNextRequest() async throws {
        try await withServer { server, downloader in
            let tagging = AnyRedirectHandler { _, response, request in
                var request = request
                request.setValue("\(response.statusCode)", forHTTPHeaderField: "X-Redirected-From")
                return request
            }
            _ = try await downloader.downloadImage(
                with: server.url("/redirect/1/photo.gif"),
                options: KingfisherParsedOptionsInfo([.redirectHandler(tagging)]))
            #expect(server.headers("/image/photo.gif")["x-redirected-from"] == "302")
        }
    }

    @Test func aRedirectHandlerThatNeverAnswersEndsAtTheDurationLimit() async throws {
        try await withServer { server, downloader in
            downloader.maxDownloadDuration = 1
            let silent = AnyRedirectHandler { _, _, _, _ in }
            let error = await failure(downloader, server.url("/redirect/1/photo.png"), options: [.redirectHandler(silent)])
            #expect(urlSessionError(error)?.code == .timedOut, "\(String(describing: error))")
            #expect(String(describing: error).contains("ran past the 1.0 s limit on a download's duration"), "\(String(describing: error))")
        }
    }

    @Test func aRedirectDeclinedByTheHandlerLeavesThe302() async throws {
        try await withServer { server, downloader in
            let refusing = AnyRedirectHandler { _, _, _ in nil }
            let stopped = await failure(downloader, server.url("/redirect/1/orientation_1.jpg"), options: [.redirectHandler(refusing)])
            #expect(stopped?.isInvalidResponseStatusCode(302) == true)
            #expect(server.requests("/image/orientation_1.jpg") == 0)
        }
    }

    @Test func redirectsLeavingHTTPAreNotFollowed() async throws {
        try await withServer { server, downloader in
            let unix = await failure(downloader, server.url("/unixredirect"))
            guard case .redirectRefused(_, let why)? = unix?.downloadFailure?.reason else {
                Issue.record("\(String(describing: unix))")
                return
            }
            #expect(why.hasPrefix("http+unix:"), "\(why)")
            #expect(why.hasSuffix(" is not an http or https URL with a host"))
        }
    }

    @Test func aRedirectLoopStopsAtTheLimit() async throws {
        try await withServer { server, downloader in
            downloader.redirectLimit = 4
            let loop = await failure(downloader, server.url("/loop"))
            guard let stopped = urlSessionError(loop) else {
                Issue.record("\(String(describing: loop))")
                return
            }
            #expect(stopped.code == .httpTooManyRedirects && stopped.limit == 4 && server.requests("/loop") <= 5)
            #expect(
                loop?.localizedDescription
                    == "The download failed: \(server.url("/loop").absoluteString): more than 4 redirects (or a loop).")
        }
    }

    @Test func moreRedirectsThanTheLimitFail() async throws {
        try await withServer { server, downloader in
            downloader.redirectLimit = 4
            let tooMany = await failure(downloader, server.url("/redirect/6/photo.png"))
            #expect(urlSessionError(tooMany)?.code == .httpTooManyRedirects, "\(String(describing: tooMany))")
        }
    }

    // MARK: The delegate

    @Test func aDelegateDroppingTheDataFailsTheDownload() async throws {
        try await withServer { server, downloader in
            let dropping = RecordingDelegate(dropData: true)
            downloader.delegate = dropping
            let error = await failure(downloader, server.url("/image/photo.gif"))
            guard case .responseError(reason: .dataModifyingFailed)? = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            withExtendedLifetime(dropping) {}
        }
    }

    @Test func aDelegateCancellingTheResponseFailsTheDownload() async throws {
        try await withServer { server, downloader in
            let cancelling = RecordingDelegate(cancelResponse: true)
            downloader.delegate = cancelling
            let error = await failure(downloader, server.url("/image/photo.gif"))
            guard case .responseError(reason: .cancelledByDelegate)? = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            withExtendedLifetime(cancelling) {}
        }
    }

    /// A delegate written for Kingfisher 7: the completion-handler form with Foundation's type.
    final class CompletionHandlerDelegate: ImageDownloaderDelegate {
        let asked = Locked(0)
        func imageDownloader(
            _ downloader: ImageDownloader, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            asked.withLock { $0 += 1 }
            completionHandler(.cancel)
        }
    }

    @Test func aDelegateAnsweringThroughACompletionHandlerIsHeard() async throws {
        try await withServer { server, downloader in
            let delegate = CompletionHandlerDelegate()
            downloader.delegate = delegate
            let error = await failure(downloader, server.url("/image/photo.gif"))
            guard case .responseError(reason: .cancelledByDelegate)? = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            #expect(delegate.asked.withLock { $0 } == 1)
        }
    }

    @Test func aDelegateCanAcceptMoreStatusCodes() async throws {
        try await withServer { server, downloader in
            let lenient = RecordingDelegate(accept404: true)
            downloader.delegate = lenient
            // The 404's body is read: it is text, not an image.
            let notImage = await failure(downloader, server.url("/status/404"))
            #expect(notImage?.decodingFailure?.contentType == "text/plain", "\(String(describing: notImage))")
            withExtendedLifetime(lenient) {}
        }
    }

    // MARK: Responses

    @Test func progressIsReportedAsBytesArrive() async throws {
        try await withServer { server, downloader in
            let call = DownloadCall(downloader, server.url("/slow/photo.png?chunk=4096&interval=50"))
            _ = try await call.image()
            let size = Int64(try Fixtures.data("photo.png").count)
            let seen = call.progress.withLock { $0 }
            #expect(seen.count >= 3, "streamed in several chunks")
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.received < $1.received })
            #expect(seen.last?.received == size && seen.allSatisfy { $0.expected == size })
        }
    }

    @Test(arguments: [404, 500, 503])
    func badStatusCodesFail(_ code: Int) async throws {
        try await withServer { server, downloader in
            let error = await failure(downloader, server.url("/status/\(code)"))
            #expect(error?.isInvalidResponseStatusCode(code) == true)
            #expect(error?.errorCode == 2002)
        }
    }

    @Test func anHTMLPageFailsNamingItsContentType() async throws {
        try await withServer { server, downloader in
            let error = await failure(downloader, server.url("/html"))
            guard case .processorError(reason: .processingFailed(let processor, _))? = error,
                let decoding = processor as? KingfisherError.DecodingFailure
            else {
                Issue.record("\(String(describing: error))")
                return
            }
            #expect(decoding.contentType == "text/html; charset=utf-8" && decoding.url == server.url("/html"))
            #expect(decoding.reason == .unknownFormat(description: "an HTML document"))
            #expect(decoding.identifier == DefaultImageProcessor.default.identifier, "it stands in for the caller's processor")
            #expect(error?.localizedDescription.contains("text/html") == true)
        }
    }

    @Test func anAnnouncedOversizedBodyIsNotRead() async throws {
        try await withServer { server, downloader in
            downloader.maxResponseDataSize = 1 << 20
            let announced = await failure(downloader, server.url("/big"))
            guard let refused = urlSessionError(announced) else {
                Issue.record("\(String(describing: announced))")
                return
            }
            #expect(refused.code == .dataLengthExceedsMaximum && refused.limit == 1 << 20 && refused.received == 64 << 20)
            try await server.wait { $0.aborted["/big", default: 0] >= 1 }
            #expect(server.completed("/big") == 0)
        }
    }

    @Test func anOversizedBodyStopsAtTheFirstChunkPastTheLimit() async throws {
        try await withServer { server, downloader in
            downloader.maxResponseDataSize = 1 << 20
            let streamed = await failure(downloader, server.url("/big?length=hidden"))
            guard let stopped = urlSessionError(streamed), let got = stopped.received else {
                Issue.record("\(String(describing: streamed))")
                return
            }
            #expect(stopped.code == .dataLengthExceedsMaximum && got > 1 << 20 && got <= 2 << 20)
            try await server.wait { $0.aborted["/big", default: 0] >= 1 }
            #expect(server.completed("/big") == 0)
        }
    }

    // MARK: Time

    @Test func idleRequestsTimeOut() async throws {
        try await withServer { server, downloader in
            downloader.downloadTimeout = 0.4
            let error = await failure(downloader, server.url("/hang"))
            guard case .responseError(reason: .URLSessionError(let underlying))? = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            #expect((underlying as? URLError)?.code == .timedOut)
            // One line that says what happened and to what.
            let message = error?.localizedDescription ?? ""
            #expect(
                message.contains(server.url("/hang").absoluteString) && message.contains("timed out after")
                    && message.contains("with no response") && message.contains("idle timeout 0.4 s"), "\(message)")
            // The server never answers: the message says the idle timeout ended it, not the
            // duration limit (which is when it happened is not compared: that is the clock's).
            #expect(
                message.contains("no complete response head for") && !message.contains("limit on a download's duration"), "\(message)")
        }
    }

    @Test func aSlowButSteadyBodyIsNotIdle() async throws {
        try await withServer { server, downloader in
            // 12 chunks: the body takes one and a half times the idle timeout, each gap an eighth
            // of it, so a gap may stretch by seconds on a loaded machine and still not be idle.
            let gap = SanitizerAllowance.isActive ? 500 : 250
            downloader.downloadTimeout = 8 * Double(gap) / 1000
            let steady = try await downloader.downloadImage(with: server.url("/slow/photo.png?chunk=4096&interval=\(gap)"))
            #expect(steady.image.pixelWidth == 190)
        }
    }

    // MARK: TLS and HTTP/2

    @Test func selfSignedCertificatesAreRefusedFromUntrustedHosts() async throws {
        try await withTestHTTPServer(tls: true) { server in
            let downloader = ImageDownloader(name: "tls")
            // Which error arrives says whether the certificate error came before the idle
            // timeout; the wall time would also count waiting for a free cooperative thread.
            downloader.downloadTimeout = 60
            let refused = await failure(downloader, server.url("/image/photo.png"))
            guard case .responseError(reason: .URLSessionError(let underlying))? = refused else {
                Issue.record("\(String(describing: refused))")
                return
            }
            #expect(
                (underlying as? URLError)?.code == .serverCertificateUntrusted,
                "the certificate error (self-signed), not a timeout: \(underlying)")
            let message = refused?.localizedDescription ?? ""
            #expect(
                message.contains("the TLS handshake with 127.0.0.1:\(server.port) failed: its certificate is not trusted"), "\(message)")
            #expect(server.requests("/image/photo.png") == 0, "no request over an untrusted connection")
        }
    }

    @Test func selfSignedCertificatesAreAcceptedFromTrustedHosts() async throws {
        try await withTestHTTPServer(tls: true) { server in
            let downloader = ImageDownloader(name: "tls")
            downloader.trustedHosts = ["127.0.0.1"]
            let result = try await downloader.downloadImage(with: server.url("/image/photo.png"))
            #expect(result.image.pixelWidth == 190)
            #expect(server.requests("/image/photo.png") == 1)
        }
    }

    @Test func http2IsUsedWhenTheServerOffersIt() async throws {
        try await withTestHTTPServer(tls: true) { server in
            let downloader = ImageDownloader(name: "tls")
            downloader.trustedHosts = ["127.0.0.1"]
            _ = try await downloader.downloadImage(with: server.url("/image/photo.png"))
            #expect(server.httpVersion("/image/photo.png") == 2)
        }
    }

    // MARK: Failures before a response

    @Test func aRefusedConnectionFailsWithTheTransportError() async throws {
        let downloader = ImageDownloader(name: "refused")
        downloader.downloadTimeout = 60
        try await withRefusingPort { port in
            let url = URL(string: "http://127.0.0.1:\(port)/image/photo.png")!
            let refused = await failure(downloader, url)
            guard case .responseError(reason: .URLSessionError(let underlying))? = refused else {
                Issue.record("\(String(describing: refused))")
                return
            }
            #expect((underlying as? URLError)?.code == .cannotConnectToHost, "the connection error, not a timeout: \(underlying)")
            let message = refused?.localizedDescription ?? ""
            #expect(message == "The download failed: \(url.absoluteString): connection refused by 127.0.0.1:\(port).", "\(message)")
        }
    }

    @Test func aURLOtherThanHTTPIsInvalid() async throws {
        let downloader = ImageDownloader(name: "invalid")
        let invalid = await failure(downloader, URL(string: "ftp://example.com/a.png")!)
        guard case .requestError(reason: .invalidURL)? = invalid else {
            Issue.record("\(String(describing: invalid))")
            return
        }
        #expect(
            invalid?.localizedDescription
                == "Unsupported URL scheme \"ftp\" in ftp://example.com/a.png: only http and https URLs are downloaded.")
    }

    @Test func aHostThatDoesNotResolveSaysSoInOneLine() async throws {
        // `.invalid` never resolves (RFC 6761), with or without a network.
        let url = URL(string: "http://kingfisher-test.invalid/a.png")!
        let failed = await failure(ImageDownloader(name: "dns"), url)
        guard case .responseError(reason: .URLSessionError(let underlying))? = failed else {
            Issue.record("\(String(describing: failed))")
            return
        }
        #expect((underlying as? URLError)?.code == .cannotFindHost, "\(underlying)")
        #expect(
            failed?.localizedDescription
                == "The download failed: \(url.absoluteString): the DNS lookup of kingfisher-test.invalid found no address.")
    }

    // MARK: Processing

    @Test func processorsRunOnTheGivenProcessingQueue() async throws {
        try await withServer { server, downloader in
            let key = DispatchSpecificKey<String>()
            let queue = DispatchQueue(label: "test.processing")
            queue.setSpecific(key: key, value: "mine")
            let seen = Locked<String?>(nil)
            let processor = GeneralProcessor(identifier: "queue-check") { item, options in
                seen.withLock { $0 = DispatchQueue.getSpecific(key: key) }
                return DefaultImageProcessor.default.process(item: item, options: options)
            }
            _ = try await downloader.downloadImage(
                with: server.url("/image/photo.png"),
                options: KingfisherParsedOptionsInfo([.processor(processor), .processingQueue(.dispatch(queue))]))
            #expect(seen.withLock { $0 } == "mine")
        }
    }

    @Test func processorsRunOnTheDownloadersQueueByDefault() async throws {
        try await withServer { server, downloader in
            let key = DispatchSpecificKey<String>()
            downloader.processingQueue.setSpecific(key: key, value: "downloader")
            let seen = Locked<String?>(nil)
            let processor = GeneralProcessor(identifier: "queue-check") { item, options in
                seen.withLock { $0 = DispatchQueue.getSpecific(key: key) }
                return DefaultImageProcessor.default.process(item: item, options: options)
            }
            _ = try await downloader.downloadImage(
                with: server.url("/image/photo.gif"),
                options: KingfisherParsedOptionsInfo([.processor(processor)]))
            #expect(seen.withLock { $0 } == "downloader")
        }
    }
}
