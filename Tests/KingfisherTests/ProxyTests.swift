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

/// Proxies for ``AsyncHTTPClientTransport``: which requests go through which proxy (the
/// `NO_PROXY` rules, the environment), then real requests through a real tinyproxy, whose log
/// shows the tunnels it opened.
@Suite(.timeLimit(.minutes(10))) struct ProxyTests {
    // MARK: Which requests a proxy gets

    @Test(arguments: [
        ("example.com", "example.com", 80, true), ("example.com", "img.example.com", 80, true),
        (".example.com", "example.com", 80, true), (".example.com", "a.b.example.com", 443, true),
        ("example.com", "badexample.com", 80, false), ("example.com", "example.org", 80, false),
        ("EXAMPLE.com", "Example.COM.", 80, true), ("*", "anything.test", 8080, true),
        ("a.test, example.com:8080", "example.com", 8080, true), ("example.com:8080", "example.com", 80, false),
        ("127.0.0.1", "127.0.0.1", 5000, true), ("2.3", "10.1.2.3", 80, false), ("127.0.0.1:5000", "127.0.0.1", 5001, false),
        ("::1", "::1", 80, true), ("[::1]:8080", "[::1]", 8080, true), ("", "127.0.0.1", 80, false),
        ("localhost", "127.0.0.1", 80, false),
    ])
    func noProxyMatchesHostsDomainsAndPorts(list: String, host: String, port: Int, bypassed: Bool) {
        #expect(NoProxyList(list).matches(host: host, port: port) == bypassed)
    }

    func proxy(_ environment: [String: String], for url: String) throws -> String? {
        try ProxyRoutes(.environment, environment: environment).proxy(for: URL(string: url)!)?.endpoint
    }

    @Test func theEnvironmentNamesAProxyPerScheme() throws {
        let environment = ["http_proxy": "http://plain.test:3128", "HTTPS_PROXY": "secure.test:8080"]
        #expect(try proxy(environment, for: "http://example.com/a.png") == "plain.test:3128")
        #expect(try proxy(environment, for: "https://example.com/a.png") == "secure.test:8080")
        #expect(try proxy(["https_proxy": "secure.test"], for: "http://example.com/a.png") == nil)
        // curl's default port, and an empty variable counts as unset.
        #expect(try proxy(["http_proxy": "proxy.test"], for: "http://example.com/") == "proxy.test:1080")
        #expect(try proxy(["http_proxy": "", "HTTP_PROXY": "upper.test:1"], for: "http://example.com/") == "upper.test:1")
    }

    @Test func lowercaseVariablesWin() throws {
        let environment = ["http_proxy": "lower.test:1", "HTTP_PROXY": "upper.test:2", "no_proxy": "a.test", "NO_PROXY": "example.com"]
        #expect(try proxy(environment, for: "http://example.com/") == "lower.test:1")
        #expect(try proxy(environment, for: "http://a.test/") == nil)
    }

    @Test func credentialsBecomeBasicAuthorization() throws {
        let server = try ProxyServer(parsing: "http://user%40corp:p%3Ass@proxy.test:3128", source: "test")
        #expect(server.user == "user@corp" && server.password == "p:ss")
        #expect(server.asyncHTTPClientProxy.authorization == .basic(username: "user@corp", password: "p:ss"))
    }

    @Test func unusableProxySettingsAreNamed() {
        func error(_ environment: [String: String]) -> String? {
            do {
                _ = try AsyncHTTPClientTransport(configuration: .init(), environment: environment)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(
            error(["HTTPS_PROXY": "socks5://proxy.test:1080"])
                == "HTTPS_PROXY 'socks5://proxy.test:1080' has scheme 'socks5': only http:// proxies are supported")
        #expect(
            error(["http_proxy": "http://proxy.test/some/path"])
                == "http_proxy 'http://proxy.test/some/path' is not a proxy URL: use http://[user:password@]host[:port]")
        #expect(error(["http_proxy": "http://proxy.test:3128/"]) == nil)
    }

    // MARK: Through tinyproxy

    /// A downloader whose transport has `proxy`, or reads `environment` for it.
    func downloader(
        proxy: AsyncHTTPClientTransport.Proxy = .environment, environment: [String: String] = [:],
        pins: [String: Set<String>] = [:]
    ) throws -> ImageDownloader {
        let transport = try AsyncHTTPClientTransport(configuration: .init(proxy: proxy, pinnedPublicKeys: pins), environment: environment)
        let downloader = ImageDownloader(name: "proxy", transport: transport)
        // Which error arrives says whether it came before the idle timeout.
        downloader.downloadTimeout = 60
        return downloader
    }

    @Test func requestsGoThroughTheConfiguredProxy() async throws {
        try await withTinyproxy { tinyproxy in
            try await withTestHTTPServer { server in
                let result = try await downloader(proxy: .server(tinyproxy.url())).downloadImage(with: server.url("/image/photo.png"))
                #expect(result.image.pixelWidth == 190 && server.requests("/image/photo.png") == 1)
                #expect(tinyproxy.forwarded(toPort: server.port), "\(tinyproxy.log)")
            }
        }
    }

    /// A proxy that opens tunnels only to port 443 (tinyproxy's and squid's stock rule) still
    /// carries plain http: it is sent the request in absolute form, as curl sends it.
    @Test func plainHTTPGoesToTheProxyInAbsoluteFormNotThroughATunnel() async throws {
        try await withTinyproxy(connectPorts: [443]) { tinyproxy in
            try await withTestHTTPServer { server in
                let url = server.url("/image/photo.png?size=full")
                let result = try await downloader(proxy: .server(tinyproxy.url())).downloadImage(with: url)
                #expect(result.image.pixelWidth == 190 && server.requests("/image/photo.png") == 1)
                #expect(tinyproxy.log.contains("GET \(url.absoluteString) HTTP/1.1"), "\(tinyproxy.log)")
                #expect(!tinyproxy.tunnelled(toPort: server.port), "\(tinyproxy.log)")
                // The origin sees its own authority in Host, not the proxy's.
                #expect(server.headers("/image/photo.png")["host"] == "127.0.0.1:\(server.port)", "\(server.headers("/image/photo.png"))")
            }
        }
    }

    @Test func requestsGoThroughTheEnvironmentsProxy() async throws {
        try await withTinyproxy { tinyproxy in
            try await withTestHTTPServer { server in
                // The uppercase variable names a dead port: only the lowercase one works.
                try await withRefusingPort { deadPort in
                    let environment = ["http_proxy": tinyproxy.url().absoluteString, "HTTP_PROXY": "http://127.0.0.1:\(deadPort)"]
                    let result = try await downloader(environment: environment).downloadImage(with: server.url("/image/photo.png"))
                    #expect(result.image.pixelWidth == 190)
                }
                #expect(tinyproxy.forwarded(toPort: server.port), "\(tinyproxy.log)")
            }
        }
    }

    @Test(arguments: ["127.0.0.1", "*", ".0.0.1.test, 127.0.0.1:PORT"])
    func noProxyHostsGoDirectly(_ noProxy: String) async throws {
        try await withTinyproxy { tinyproxy in
            try await withTestHTTPServer { server in
                let environment = [
                    "http_proxy": tinyproxy.url().absoluteString,
                    "no_proxy": noProxy.replacingOccurrences(of: "PORT", with: "\(server.port)"),
                ]
                let result = try await downloader(environment: environment).downloadImage(with: server.url("/image/photo.png"))
                #expect(result.image.pixelWidth == 190 && server.requests("/image/photo.png") == 1)
                #expect(!tinyproxy.carried(toPort: server.port), "\(tinyproxy.log)")
                // The same list on an explicit proxy.
                let bypass = environment["no_proxy"]!
                _ = try await downloader(proxy: .server(tinyproxy.url(), bypass: bypass)).downloadImage(
                    with: server.url("/image/photo.png"))
                #expect(server.requests("/image/photo.png") == 2 && !tinyproxy.carried(toPort: server.port), "\(tinyproxy.log)")
            }
        }
    }

    @Test func noneIgnoresTheEnvironment() async throws {
        try await withTestHTTPServer { server in
            try await withRefusingPort { deadPort in
                let result = try await downloader(proxy: .none, environment: ["http_proxy": "http://127.0.0.1:\(deadPort)"])
                    .downloadImage(with: server.url("/image/photo.png"))
                #expect(result.image.pixelWidth == 190)
            }
        }
    }

    @Test func aDeadProxyFailsNamingTheProxy() async throws {
        try await withTestHTTPServer { server in
            try await withRefusingPort { deadPort in
                let url = server.url("/image/photo.png")
                let failure = await kingfisherError {
                    _ = try await downloader(proxy: .server(URL(string: "http://127.0.0.1:\(deadPort)")!)).downloadImage(with: url)
                }
                guard case .responseError(reason: .URLSessionError(let underlying as URLError))? = failure else {
                    Issue.record("\(String(describing: failure))")
                    return
                }
                #expect(underlying.code == .cannotConnectToHost)
                #expect(
                    failure?.localizedDescription
                        == "The download failed: \(url.absoluteString): connection refused by proxy 127.0.0.1:\(deadPort).",
                    "\(String(describing: failure?.localizedDescription))")
                #expect(server.requests("/image/photo.png") == 0)
            }
        }
    }

    @Test func httpsGoesThroughATunnelToAPinnedServer() async throws {
        try await withTestCertificates { certificates in
            try await withTLSFront(certificate: certificates.selfSignedCertificate, key: certificates.selfSignedKey) { front, server in
                try await withTinyproxy { tinyproxy in
                    let pin = try await certificates.pin(of: certificates.selfSignedCertificate)
                    // The https variable applies to https URLs; TLS runs end to end inside the tunnel.
                    let pinned = try downloader(environment: ["https_proxy": tinyproxy.url().absoluteString], pins: ["127.0.0.1": [pin]])
                    let result = try await pinned.downloadImage(with: front.url("/image/photo.png"))
                    #expect(result.image.pixelWidth == 190 && server.requests("/image/photo.png") == 1)
                    #expect(tinyproxy.tunnelled(toPort: front.port), "\(tinyproxy.log)")
                }
            }
        }
    }

    @Test func proxyCredentialsAreSent() async throws {
        try await withTinyproxy(basicAuth: "kingfisher s3cret") { tinyproxy in
            try await withTestHTTPServer { server in
                let url = server.url("/image/photo.png")
                let result = try await downloader(proxy: .server(tinyproxy.url(credentials: "kingfisher:s3cret"))).downloadImage(with: url)
                #expect(result.image.pixelWidth == 190)
                let refused = await kingfisherError { _ = try await downloader(proxy: .server(tinyproxy.url())).downloadImage(with: url) }
                guard case .responseError(reason: .URLSessionError(let underlying as URLError))? = refused else {
                    Issue.record("\(String(describing: refused))")
                    return
                }
                #expect(underlying.code == .userAuthenticationRequired)
                #expect(
                    TransportErrorText.describe(underlying).hasSuffix("proxy 127.0.0.1:\(tinyproxy.port) requires authentication (407)"),
                    "\(TransportErrorText.describe(underlying))")
                #expect(server.requests("/image/photo.png") == 1)
            }
        }
    }
}
