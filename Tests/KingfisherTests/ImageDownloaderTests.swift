import Foundation
import Testing
@testable import Kingfisher
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct ImageDownloaderTests {
    let options = KingfisherParsedOptionsInfo(nil)

    func withServer(_ body: (TestHTTPServer, ImageDownloader) async throws -> Void) async throws {
        let server = try await TestHTTPServer()
        let downloader = ImageDownloader(name: "test")
        try await body(server, downloader)
        await server.shutdown()
    }

    /// The error a download failed with.
    func failure(_ downloader: ImageDownloader, _ url: URL, options: KingfisherParsedOptionsInfo = KingfisherParsedOptionsInfo(nil)) async -> KingfisherError? {
        do {
            _ = try await downloader.downloadImage(with: url, options: options)
            return nil
        } catch {
            return error as? KingfisherError
        }
    }

    @Test func downloadsDecodesAndMeasures() async throws {
        try await withServer { server, downloader in
            let result = try await downloader.downloadImage(with: server.url("/image/photo.png"))
            #expect(result.image.pixelWidth == 190 && result.image.pixelHeight == 127)
            #expect(result.originalData == (try Fixtures.data("photo.png")))
            #expect(result.url == server.url("/image/photo.png"))
            let metrics = try #require(result.metrics)
            #expect(metrics.httpStatusCode == 200 && metrics.redirectCount == 0)
            #expect(metrics.responseBodyBytesReceived == Int64(result.originalData.count))
            #expect(metrics.totalRequestDuration >= metrics.timeToFirstByte && metrics.downloadSpeed > 0)
        }
    }

    @Test func concurrentRequestsForOneURLShareOneRequestAndEachProcessorRunsOnce() async throws {
        try await withServer { server, downloader in
            let url = server.url("/image/photo.png?delay=300")
            let a = CountingProcessor("a"), b = CountingProcessor("b")
            let results = try await withThrowingTaskGroup(of: ImageLoadingResult.self) { group in
                for index in 0..<6 {
                    let processor: any ImageProcessor = index % 2 == 0 ? a : b
                    group.addTask {
                        try await downloader.downloadImage(with: url, options: KingfisherParsedOptionsInfo([.processor(processor)]))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 6)
            #expect(results.allSatisfy { $0.image.pixelWidth == 10 })
            #expect(server.requests("/image/photo.png") == 1, "one HTTP request for six callers")
            #expect(a.runs == 1 && b.runs == 1, "each processor once")
            // Afterwards a new request is made.
            _ = try await downloader.downloadImage(with: url)
            #expect(server.requests("/image/photo.png") == 2)
        }
    }

    @Test func cancellingOneCallerLeavesTheOthers() async throws {
        try await withServer { server, downloader in
            // About 3.5 s of body. Both callers join and the first cancels with no suspension in
            // between: a test task starved by parallel tests cannot let the download finish first.
            let url = server.url("/slow/photo.png?chunk=1024&interval=50")
            let options = KingfisherParsedOptionsInfo([.callbackQueue(.untouch)])
            let first = Locked<Result<ImageLoadingResult, KingfisherError>?>(nil)
            let second = Locked<Result<ImageLoadingResult, KingfisherError>?>(nil)
            let task = downloader.downloadImage(with: url, options: options,
                                                completionHandler: { result in first.withLock { $0 = result } })
            downloader.downloadImage(with: url, options: options, completionHandler: { result in second.withLock { $0 = result } })
            task?.cancel()
            guard case .failure(let error)? = first.withLock({ $0 }) else { Issue.record("first caller not cancelled"); return }
            #expect(error.isTaskCancelled)
            for _ in 0..<500 where second.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
            let image = try #require(try second.withLock { $0 }?.get()).image
            #expect(image.pixelWidth == 190)
            #expect(server.requests("/slow/photo.png") == 1)
            for _ in 0..<50 where server.completed("/slow/photo.png") == 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(server.completed("/slow/photo.png") == 1 && server.aborted("/slow/photo.png") == 0)
        }
    }

    @Test func cancellingTheLastCallerClosesTheConnection() async throws {
        try await withServer { server, downloader in
            let url = server.url("/slow/photo.png?chunk=1024&interval=50")
            let errors = Locked<[KingfisherError]>([])
            let options = KingfisherParsedOptionsInfo([.callbackQueue(.untouch)])
            // Both callers cancel from the first progress report, so mid-body for sure, however
            // late this test's task gets to run.
            let tasks = Locked<[DownloadTask]>([])
            let cancelOnFirstBytes: DownloadProgressBlock = { _, _ in tasks.withLock { $0 }.forEach { $0.cancel() } }
            let started = (0..<2).compactMap { _ in
                downloader.downloadImage(with: url, options: options, progressBlock: cancelOnFirstBytes, completionHandler: { result in
                    if case .failure(let error) = result { errors.withLock { $0.append(error) } }
                })
            }
            tasks.withLock { $0 = started }
            for _ in 0..<250 where server.aborted("/slow/photo.png") == 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(server.aborted("/slow/photo.png") == 1, "the server saw the connection close mid-body")
            #expect(server.completed("/slow/photo.png") == 0)
            #expect(errors.withLock { $0.count } == 2 && errors.withLock { $0.allSatisfy(\.isTaskCancelled) })
        }
    }

    @Test func cancellingTheAsyncCallCancelsTheDownload() async throws {
        try await withServer { server, downloader in
            let task = Task { try await downloader.downloadImage(with: server.url("/slow/photo.png?chunk=512&interval=200")) }
            for _ in 0..<250 where server.requests("/slow/photo.png") == 0 { try await Task.sleep(for: .milliseconds(20)) }
            try await Task.sleep(for: .milliseconds(60))
            task.cancel()
            await #expect { try await task.value } throws: { ($0 as? KingfisherError)?.isTaskCancelled == true }
            for _ in 0..<250 where server.aborted("/slow/photo.png") == 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(server.aborted("/slow/photo.png") == 1)
        }
    }

    @Test func cancelURLAndCancelAll() async throws {
        try await withServer { server, downloader in
            let slow = server.url("/slow/photo.png?chunk=512&interval=200"), other = server.url("/hang")
            async let a = failure(downloader, slow)
            async let b = failure(downloader, slow)
            async let c = failure(downloader, other)
            for _ in 0..<250 where downloader.activeDownloadCount.running < 2 { try await Task.sleep(for: .milliseconds(20)) }
            try await Task.sleep(for: .milliseconds(50))
            downloader.cancel(url: slow)
            let first = await [a, b]
            #expect(first.allSatisfy { $0?.isTaskCancelled == true })
            downloader.cancelAll()
            #expect(await c?.isTaskCancelled == true)
        }
    }

    @Test func waitingDownloadsStartByPriority() async throws {
        try await withServer { server, downloader in
            downloader.maximumConcurrentDownloads = 1
            let options = { (priority: Float) in KingfisherParsedOptionsInfo([.downloadPriority(priority), .callbackQueue(.untouch)]) }
            let done = Locked(0)
            func start(_ path: String, _ priority: Float) -> DownloadTask? {
                downloader.downloadImage(with: server.url(path), options: options(priority), completionHandler: { _ in
                    done.withLock { $0 += 1 }
                })
            }
            // A request that never gets an answer holds the only slot until it is cancelled.
            let blocker = start("/hang", 0.5)
            for _ in 0..<250 where server.requests("/hang") == 0 { try await Task.sleep(for: .milliseconds(20)) }
            _ = start("/image/photo.gif", 0.1)
            let raised = start("/image/orientation_1.jpg", 0.2)
            _ = start("/image/photo_lossy.webp", 0.5)
            _ = start("/image/png_rgb_8.png", 0.9)
            #expect(downloader.activeDownloadCount.waiting == 4)
            raised?.priority = 1.0
            blocker?.cancel()
            for _ in 0..<250 where done.withLock({ $0 }) < 5 { try await Task.sleep(for: .milliseconds(20)) }
            // The order the server saw the requests: one at a time, highest priority first.
            #expect(server.arrivals == ["/hang", "/image/orientation_1.jpg", "/image/png_rgb_8.png",
                                        "/image/photo_lossy.webp", "/image/photo.gif"])
        }
    }

    @Test func requestModifiersChangeOrStopTheRequest() async throws {
        try await withServer { server, downloader in
            let header = AnyModifier { request in
                var request = request
                request.setValue("kingfisher", forHTTPHeaderField: "X-Test")
                return request
            }
            _ = try await downloader.downloadImage(with: server.url("/image/photo.png"),
                                                   options: KingfisherParsedOptionsInfo([.requestModifier(header)]))
            #expect(server.headers("/image/photo.png")["x-test"] == "kingfisher")

            struct Redirecting: AsyncImageDownloadRequestModifier {
                let target: URL
                func modified(for request: URLRequest) async -> URLRequest? {
                    try? await Task.sleep(for: .milliseconds(10))
                    var request = request
                    request.url = target
                    return request
                }
            }
            let result = try await downloader.downloadImage(with: server.url("/image/nothing.png"),
                                                            options: KingfisherParsedOptionsInfo([.requestModifier(Redirecting(target: server.url("/image/photo.gif")))]))
            #expect(result.image.format == .GIF)
            #expect(server.requests("/image/nothing.png") == 0)

            let empty = AnyModifier { _ in nil }
            let error = await failure(downloader, server.url("/image/photo.png"), options: KingfisherParsedOptionsInfo([.requestModifier(empty)]))
            guard case .requestError(reason: .emptyRequest)? = error else { Issue.record("\(String(describing: error))"); return }
        }
    }

    @Test func redirectsAreFollowedHandledAndLimited() async throws {
        try await withServer { server, downloader in
            let result = try await downloader.downloadImage(with: server.url("/redirect/3/photo.png"))
            #expect(result.image.pixelWidth == 190 && result.metrics?.redirectCount == 3)

            let tagging = AnyRedirectHandler { _, response, request in
                var request = request
                request.setValue("\(response.statusCode)", forHTTPHeaderField: "X-Redirected-From")
                return request
            }
            _ = try await downloader.downloadImage(with: server.url("/redirect/1/photo.gif"),
                                                   options: KingfisherParsedOptionsInfo([.redirectHandler(tagging)]))
            #expect(server.headers("/image/photo.gif")["x-redirected-from"] == "302")

            let refusing = AnyRedirectHandler { _, _, _ in nil }
            let stopped = await failure(downloader, server.url("/redirect/1/orientation_1.jpg"),
                                        options: KingfisherParsedOptionsInfo([.redirectHandler(refusing)]))
            #expect(stopped?.isInvalidResponseStatusCode(302) == true, "a declined redirect leaves the 302")
            #expect(server.requests("/image/orientation_1.jpg") == 0)

            // Redirects leave http(s): not followed.
            let unix = await failure(downloader, server.url("/unixredirect"))
            guard case .responseError(reason: .notAnImage)? = unix else { Issue.record("\(String(describing: unix))"); return }

            downloader.redirectLimit = 4
            let loop = await failure(downloader, server.url("/loop"))
            guard case .responseError(reason: .tooManyRedirects(_, let limit))? = loop else { Issue.record("\(String(describing: loop))"); return }
            #expect(limit == 4 && server.requests("/loop") <= 5)
            let tooMany = await failure(downloader, server.url("/redirect/6/photo.png"))
            guard case .responseError(reason: .tooManyRedirects)? = tooMany else { Issue.record("\(String(describing: tooMany))"); return }
        }
    }

    @Test func delegateIsToldOncePerDownloadAndSteers() async throws {
        try await withServer { server, downloader in
            let delegate = RecordingDelegate()
            downloader.delegate = delegate
            let url = server.url("/image/photo.png?delay=150")
            async let a = downloader.downloadImage(with: url)
            async let b = downloader.downloadImage(with: url)
            _ = try await [a, b]
            let calls = delegate.calls.withLock { $0 }
            #expect(calls.filter { $0 == "will" }.count == 1 && calls.filter { $0 == "finish" }.count == 1)
            #expect(calls.filter { $0 == "data" }.count == 1 && calls.filter { $0 == "image" }.count == 1)

            let dropping = RecordingDelegate(dropData: true)
            downloader.delegate = dropping
            guard case .responseError(reason: .dataModifyingFailed)? = await failure(downloader, server.url("/image/photo.gif")) else {
                Issue.record("expected dataModifyingFailed"); return
            }
            let cancelling = RecordingDelegate(cancelResponse: true)
            downloader.delegate = cancelling
            guard case .responseError(reason: .cancelledByDelegate)? = await failure(downloader, server.url("/image/photo.gif")) else {
                Issue.record("expected cancelledByDelegate"); return
            }
            let lenient = RecordingDelegate(accept404: true)
            downloader.delegate = lenient
            let notImage = await failure(downloader, server.url("/status/404"))
            guard case .responseError(reason: .notAnImage(_, let type, _))? = notImage else { Issue.record("\(String(describing: notImage))"); return }
            #expect(type == "text/plain")
            _ = dropping; _ = cancelling
        }
    }

    @Test func progressIsReportedAsBytesArrive() async throws {
        try await withServer { server, downloader in
            let reports = Locked<[(Int64, Int64)]>([])
            let result: Result<ImageLoadingResult, KingfisherError> = await withCheckedContinuation { continuation in
                downloader.downloadImage(with: server.url("/slow/photo.png?chunk=8192&interval=10"),
                                         options: KingfisherParsedOptionsInfo([.callbackQueue(.untouch)]),
                                         progressBlock: { received, total in reports.withLock { $0.append((received, total)) } },
                                         completionHandler: { continuation.resume(returning: $0) })
            }
            let size = Int64(try Fixtures.data("photo.png").count)
            #expect((try? result.get()) != nil)
            let seen = reports.withLock { $0 }
            #expect(seen.count >= 3, "streamed in several chunks")
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.0 < $1.0 })
            #expect(seen.last?.0 == size && seen.allSatisfy { $0.1 == size })
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
            guard case .responseError(reason: .notAnImage(_, let type, let reason))? = error else { Issue.record("\(String(describing: error))"); return }
            #expect(type == "text/html; charset=utf-8")
            #expect(reason == .unknownFormat(description: "an HTML document"))
            #expect(error?.localizedDescription.contains("text/html") == true)
        }
    }

    @Test func oversizedBodiesStopReading() async throws {
        try await withServer { server, downloader in
            downloader.maximumResponseDataSize = 1 << 20
            let announced = await failure(downloader, server.url("/big"))
            guard case .responseError(reason: .responseTooLarge(_, let limit, let received))? = announced else {
                Issue.record("\(String(describing: announced))"); return
            }
            #expect(limit == 1 << 20 && received == 64 << 20)
            let streamed = await failure(downloader, server.url("/big?length=hidden"))
            guard case .responseError(reason: .responseTooLarge(_, _, let got))? = streamed else {
                Issue.record("\(String(describing: streamed))"); return
            }
            #expect(got > 1 << 20 && got <= 2 << 20, "stopped at the first chunk past the limit")
            for _ in 0..<250 where server.aborted("/big") < 2 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(server.aborted("/big") == 2 && server.completed("/big") == 0)
        }
    }

    @Test func idleRequestsTimeOut() async throws {
        try await withServer { server, downloader in
            downloader.downloadTimeout = 0.4
            let start = ContinuousClock.now
            let error = await failure(downloader, server.url("/hang"))
            let elapsed = ContinuousClock.now - start
            guard case .responseError(reason: .URLSessionError(let underlying))? = error else { Issue.record("\(String(describing: error))"); return }
            #expect((underlying as? URLError)?.code == .timedOut)
            // The server never answers: only the idle timeout ends this (generously bounded for
            // loaded CI machines).
            #expect(elapsed >= .milliseconds(350) && elapsed < .seconds(8) * SanitizerAllowance.time, "\(elapsed)")
            // A slow but steady body is not idle: it completes.
            let steady = try await downloader.downloadImage(with: server.url("/slow/photo.png?chunk=4096&interval=100"))
            #expect(steady.image.pixelWidth == 190)
        }
    }

    @Test func selfSignedCertificatesAreAcceptedOnlyFromTrustedHosts() async throws {
        let server = try await TestHTTPServer(tls: true)
        let downloader = ImageDownloader(name: "tls")
        let start = ContinuousClock.now
        let refused = await failure(downloader, server.url("/image/photo.png"))
        guard case .responseError(reason: .URLSessionError(let underlying))? = refused else {
            Issue.record("\(String(describing: refused))"); return
        }
        #expect(ContinuousClock.now - start < .seconds(10) * SanitizerAllowance.time, "reported before the idle timeout")
        #expect((underlying as? URLError)?.code != .timedOut, "the certificate error, not a timeout: \(underlying)")
        #expect(server.requests("/image/photo.png") == 0, "no request over an untrusted connection")
        downloader.trustedHosts = ["127.0.0.1"]
        let result = try await downloader.downloadImage(with: server.url("/image/photo.png"))
        #expect(result.image.pixelWidth == 190)
        #expect(server.requests("/image/photo.png") == 1)
        #expect(server.httpVersion("/image/photo.png") == 2, "HTTP/2 when the server offers it")
        await server.shutdown()
    }

    @Test func transportFailuresAndBadURLs() async throws {
        let downloader = ImageDownloader(name: "refused")
        let closed = try await TestHTTPServer()
        let url = closed.url("/image/photo.png")
        await closed.shutdown()
        let start = ContinuousClock.now
        let refused = await failure(downloader, url)
        guard case .responseError(reason: .URLSessionError(let underlying))? = refused else {
            Issue.record("\(String(describing: refused))"); return
        }
        #expect(ContinuousClock.now - start < .seconds(10) * SanitizerAllowance.time, "reported before the idle timeout")
        #expect((underlying as? URLError)?.code != .timedOut, "the connection error, not a timeout: \(underlying)")
        let invalid = await failure(downloader, URL(string: "ftp://example.com/a.png")!)
        guard case .requestError(reason: .invalidURL)? = invalid else { Issue.record("\(String(describing: invalid))"); return }
    }

    /// Passes exchanges to another transport, recording requests and body chunks.
    struct RecordingTransport: ImageDownloaderTransport {
        let inner: any ImageDownloaderTransport
        let requests = Locked<[URL]>([])
        let chunks = Locked(0)

        struct Counting: TransportExchangeReceiver {
            let inner: any TransportExchangeReceiver
            let chunks: Locked<Int>
            func didReceiveResponse(_ response: TransportResponse, proceed: @escaping @Sendable (Bool) -> Void) {
                inner.didReceiveResponse(response, proceed: proceed)
            }
            func didReceiveData(_ bytes: UnsafeRawBufferPointer) -> Bool {
                chunks.withLock { $0 += 1 }
                return inner.didReceiveData(bytes)
            }
            func didComplete(with error: (any Error)?) { inner.didComplete(with: error) }
        }

        func startExchange(_ request: URLRequest, acceptingUntrustedCertificates: Bool,
                           receiver: any TransportExchangeReceiver) -> any TransportExchange {
            requests.withLock { $0.append(request.url!) }
            return inner.startExchange(request, acceptingUntrustedCertificates: acceptingUntrustedCertificates,
                                       receiver: Counting(inner: receiver, chunks: chunks))
        }
    }

    /// Fails every exchange before `startExchange` returns.
    struct FailingTransport: ImageDownloaderTransport {
        struct Idle: TransportExchange { func cancel() {} }
        func startExchange(_ request: URLRequest, acceptingUntrustedCertificates: Bool,
                           receiver: any TransportExchangeReceiver) -> any TransportExchange {
            receiver.didComplete(with: URLError(.notConnectedToInternet))
            return Idle()
        }
    }

    @Test func anotherTransportCanCarryTheDownloads() async throws {
        let server = try await TestHTTPServer()
        let transport = RecordingTransport(inner: AsyncHTTPClientTransport.shared)
        let downloader = ImageDownloader(name: "recorded", transport: transport)
        let result = try await downloader.downloadImage(with: server.url("/redirect/2/photo.png"))
        #expect(result.image.pixelWidth == 190)
        #expect(transport.requests.withLock { $0.count } == 3, "each redirect hop is one exchange")
        #expect(transport.chunks.withLock { $0 } >= 1)

        let failing = ImageDownloader(name: "failing", transport: FailingTransport())
        let error = await failure(failing, server.url("/image/photo.png"))
        guard case .responseError(reason: .URLSessionError(let underlying))? = error else { Issue.record("\(String(describing: error))"); return }
        #expect((underlying as? URLError)?.code == .notConnectedToInternet)
        await server.shutdown()
    }

    @Test func processorsRunOnTheProcessingQueue() async throws {
        try await withServer { server, downloader in
            let key = DispatchSpecificKey<String>()
            let queue = DispatchQueue(label: "test.processing")
            queue.setSpecific(key: key, value: "mine")
            let seen = Locked<[String?]>([])
            let processor = GeneralProcessor(identifier: "queue-check") { item, options in
                seen.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
                return DefaultImageProcessor.default.process(item: item, options: options)
            }
            _ = try await downloader.downloadImage(with: server.url("/image/photo.png"),
                                                   options: KingfisherParsedOptionsInfo([.processor(processor), .processingQueue(.dispatch(queue))]))
            _ = try await downloader.downloadImage(with: server.url("/image/photo.gif"),
                                                   options: KingfisherParsedOptionsInfo([.processor(processor)]))
            #expect(seen.withLock { $0 } == ["mine", nil], "the given queue, else the downloader's own")
        }
    }
}
