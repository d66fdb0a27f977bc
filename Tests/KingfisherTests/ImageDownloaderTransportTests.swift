// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads through transports other than the default one.
@Suite(.timeLimit(.minutes(10))) struct ImageDownloaderTransportTests {
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

        func startExchange(
            _ request: URLRequest, acceptingUntrustedCertificates: Bool,
            receiver: any TransportExchangeReceiver
        ) -> any TransportExchange {
            requests.withLock { $0.append(request.url!) }
            return inner.startExchange(
                request, acceptingUntrustedCertificates: acceptingUntrustedCertificates,
                receiver: Counting(inner: receiver, chunks: chunks))
        }
    }

    /// Fails every exchange before `startExchange` returns.
    struct FailingTransport: ImageDownloaderTransport {
        struct Idle: TransportExchange { func cancel() {} }
        func startExchange(
            _ request: URLRequest, acceptingUntrustedCertificates: Bool,
            receiver: any TransportExchangeReceiver
        ) -> any TransportExchange {
            receiver.didComplete(with: URLError(.notConnectedToInternet))
            return Idle()
        }
    }

    @Test func anotherTransportCarriesEachRedirectHop() async throws {
        try await withTestHTTPServer { server in
            let transport = RecordingTransport(inner: AsyncHTTPClientTransport.shared)
            let downloader = ImageDownloader(name: "recorded", transport: transport)
            let result = try await downloader.downloadImage(with: server.url("/redirect/2/photo.png"))
            #expect(result.image.pixelWidth == 190)
            #expect(transport.requests.withLock { $0.count } == 3, "each redirect hop is one exchange")
            #expect(transport.chunks.withLock { $0 } >= 1)
        }
    }

    @Test func aTransportFailingBeforeStartExchangeReturnsIsReported() async throws {
        let failing = ImageDownloader(name: "failing", transport: FailingTransport())
        let error = await kingfisherError { _ = try await failing.downloadImage(with: URL(string: "http://127.0.0.1:1/photo.png")!) }
        guard case .responseError(reason: .URLSessionError(let underlying))? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect((underlying as? URLError)?.code == .notConnectedToInternet)
    }
}
