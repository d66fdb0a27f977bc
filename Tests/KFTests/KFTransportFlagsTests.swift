// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

/// `kf get`'s proxy and TLS flags, run as a user runs them, against loopback servers and a real
/// tinyproxy.
@Suite(.timeLimit(.minutes(10))) struct KFTransportFlagsTests {
    /// Runs `kf` with `arguments` and the variables in `environment` added to the test's.
    func kf(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessRun {
        let assignments = environment.map { "\($0.key)=\($0.value)" }
        return try await ProcessRun.run("/usr/bin/env", assignments + [BuiltExecutable.kf.path] + arguments)
    }

    @Test func getGoesThroughTheProxyFlag() async throws {
        try await withTinyproxy { tinyproxy in
            try await withTestHTTPServerAndDirectory { server, directory in
                let run = try await kf([
                    "get", server.url("/image/photo.png").absoluteString, "--directory", directory.path,
                    "--proxy", tinyproxy.url().absoluteString,
                ])
                #expect(run.status == 0, "\(run.stderr)")
                #expect(tinyproxy.forwarded(toPort: server.port), "\(tinyproxy.log)")
            }
        }
    }

    /// `kf get` through a proxy that tunnels only to port 443, as `curl -x` gets through it.
    @Test func getReachesPlainHTTPThroughAProxyThatTunnelsOnlyToTLS() async throws {
        try await withTinyproxy(connectPorts: [443]) { tinyproxy in
            try await withTestHTTPServerAndDirectory { server, directory in
                let url = server.url("/image/photo.png").absoluteString
                let run = try await kf(
                    ["get", url, "--directory", directory.path], environment: ["HTTP_PROXY": tinyproxy.url().absoluteString])
                #expect(run.status == 0, "\(run.stderr)")
                #expect(tinyproxy.forwarded(toPort: server.port) && !tinyproxy.tunnelled(toPort: server.port), "\(tinyproxy.log)")
                let curl = try await ProcessRun.run(
                    "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-x", tinyproxy.url().absoluteString, url])
                #expect(curl.stdout == "200", "curl's yardstick: \(curl.stdout) \(curl.stderr)")
            }
        }
    }

    @Test func getGoesThroughTheEnvironmentsProxyUnlessToldNone() async throws {
        try await withTinyproxy { tinyproxy in
            try await withTestHTTPServerAndDirectory { server, directory in
                let url = server.url("/image/photo.png").absoluteString
                let proxied = try await kf(
                    ["get", url, "--directory", directory.path, "--force-refresh"],
                    environment: ["http_proxy": tinyproxy.url().absoluteString])
                #expect(proxied.status == 0, "\(proxied.stderr)")
                #expect(tinyproxy.forwarded(toPort: server.port), "\(tinyproxy.log)")
                // A dead proxy in the environment: --proxy none goes directly, without it the proxy is named.
                try await withRefusingPort { deadPort in
                    let dead = ["http_proxy": "http://127.0.0.1:\(deadPort)"]
                    let direct = try await kf(
                        ["get", url, "--directory", directory.path, "--force-refresh", "--proxy", "none"], environment: dead)
                    #expect(direct.status == 0, "\(direct.stderr)")
                    let refused = try await kf(["get", url, "--directory", directory.path, "--force-refresh"], environment: dead)
                    #expect(refused.status == 69 && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
                    #expect(refused.stderr.contains("connection refused by proxy 127.0.0.1:\(deadPort)"), "\(refused.stderr)")
                }
            }
        }
    }

    @Test func getTrustsACAFileAndAPin() async throws {
        try await withTestCertificates { certificates in
            try await withTLSFront(certificate: certificates.serverCertificate, key: certificates.serverKey) { front, server in
                try await withTemporaryDirectory { directory in
                    let url = front.url("/image/photo.png").absoluteString
                    let untrusted = try await kf(["get", url, "--directory", directory.path, "--proxy", "none"])
                    #expect(
                        untrusted.status == 69 && untrusted.stderr.contains("its issuer 'Kingfisher Test CA' is not a trusted authority"),
                        "\(untrusted.stderr)")
                    let trusted = try await kf([
                        "get", url, "--directory", directory.path, "--proxy", "none",
                        "--cacert", certificates.caCertificate,
                    ])
                    #expect(trusted.status == 0, "\(trusted.stderr)")
                    let pin = try await certificates.pin(of: certificates.serverCertificate)
                    let pinned = try await kf([
                        "get", url, "--directory", directory.path, "--proxy", "none", "--force-refresh",
                        "--pin", "127.0.0.1=\(pin)",
                    ])
                    #expect(pinned.status == 0, "\(pinned.stderr)")
                    #expect(server.requests("/image/photo.png") == 2)
                }
            }
        }
    }

    @Test func getSendsAClientCertificate() async throws {
        try await withTestCertificates { certificates in
            try await withTLSFront(
                certificate: certificates.serverCertificate, key: certificates.serverKey,
                clientCA: certificates.caCertificate
            ) { front, server in
                try await withTemporaryDirectory { directory in
                    let run = try await kf([
                        "get", front.url("/image/photo.png").absoluteString, "--directory", directory.path,
                        "--proxy", "none", "--cacert", certificates.caCertificate,
                        "--cert", certificates.clientCertificate, "--key", certificates.clientKey,
                    ])
                    #expect(run.status == 0, "\(run.stderr)")
                    #expect(server.requests("/image/photo.png") == 1)
                }
            }
        }
    }

    @Test func unusableFlagsFailWithOneLine() async throws {
        try await withTemporaryDirectory { directory in
            let missing = directory.appendingPathComponent("missing.pem").path
            let noFile = try await kf(["get", "http://127.0.0.1:1/a.png", "--directory", directory.path, "--cacert", missing])
            #expect(noFile.status == 66 && noFile.stderr == "kf: error: the CA file \(missing) does not exist\n", "\(noFile.stderr)")
            let badPin = try await kf(["get", "http://127.0.0.1:1/a.png", "--directory", directory.path, "--pin", "example.com"])
            #expect(badPin.status == 64 && badPin.stderr.contains("--pin takes HOST=sha256//BASE64, got 'example.com'"), "\(badPin.stderr)")
            let keyOnly = try await kf(["get", "http://127.0.0.1:1/a.png", "--directory", directory.path, "--key", missing])
            #expect(keyOnly.status == 64 && keyOnly.stderr.contains("--key needs --cert"), "\(keyOnly.stderr)")
        }
    }
}
