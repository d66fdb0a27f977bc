// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ImageDownloader.sessionConfiguration` mapped onto requests and the transport.
@Suite(.timeLimit(.minutes(10))) struct SessionConfigurationTests {
    @Test func theSessionsHeadersReachEveryRequestUnlessItSetsThem() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(name: "session-headers")
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["X-Session": "yes", "X-Overridden": "session"]
            configuration.timeoutIntervalForResource = 42
            downloader.sessionConfiguration = configuration
            #expect(downloader.maxDownloadDuration == 42)
            #expect(
                (downloader.transport as? AsyncHTTPClientTransport) === AsyncHTTPClientTransport.shared,
                "headers and timeouts alone keep the shared transport and its connections")
            #expect(downloader.sessionConfiguration.httpAdditionalHeaders?["X-Session"] as? String == "yes")

            let modifier = AnyModifier { request in
                var request = request
                request.setValue("modifier", forHTTPHeaderField: "X-Overridden")
                return request
            }
            _ = try await downloader.downloadImage(with: server.url("/image/photo.png"), options: [.requestModifier(modifier)])
            let headers = server.headers("/image/photo.png")
            #expect(headers["x-session"] == "yes" && headers["x-overridden"] == "modifier")
        }
    }

    @Test func theSessionsProxyGivesTheDownloaderATransportOfItsOwn() async throws {
        try await withTinyproxy { tinyproxy in
            try await withTestHTTPServer { server in
                let downloader = ImageDownloader(name: "session-proxy")
                let configuration = URLSessionConfiguration.ephemeral
                configuration.connectionProxyDictionary = ["HTTPEnable": 1, "HTTPProxy": "127.0.0.1", "HTTPPort": tinyproxy.port]
                configuration.httpMaximumConnectionsPerHost = 2
                downloader.sessionConfiguration = configuration
                #expect((downloader.transport as? AsyncHTTPClientTransport) !== AsyncHTTPClientTransport.shared)
                let result = try await downloader.downloadImage(with: server.url("/image/photo.png"))
                #expect(result.image.pixelWidth == 190)
                #expect(tinyproxy.forwarded(toPort: server.port), "\(tinyproxy.log)")

                // A transport given to the downloader is the caller's: it stays.
                let own = AsyncHTTPClientTransport()
                let kept = ImageDownloader(name: "session-own", transport: own)
                kept.sessionConfiguration = configuration
                #expect((kept.transport as? AsyncHTTPClientTransport) === own)
            }
        }
    }

    @Test func aProxyDictionaryNamesTheProxyURLSessionWouldUse() {
        #expect(ImageDownloader.proxy(in: nil) == .environment)
        #expect(ImageDownloader.proxy(in: ["HTTPEnable": 0]) == .none)
        #expect(
            ImageDownloader.proxy(in: ["HTTPEnable": 1, "HTTPProxy": "proxy.test", "HTTPPort": 3128])
                == .server(URL(string: "http://proxy.test:3128")!))
        #expect(
            ImageDownloader.proxy(in: ["HTTPEnable": 1, "HTTPProxy": "a.test", "HTTPSEnable": true, "HTTPSProxy": "b.test"])
                == .server(URL(string: "http://b.test")!), "HTTPS first")
    }
}
