// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherServer
import KingfisherTestKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Clients cannot hold the service's memory or connections: no request bodies, and a client that
/// trickles its request is cut off.
@Suite struct ImageServerClientLimitTests {
    @Test func requestBodiesAreRefused() async throws {
        try await withTemporaryDirectory { directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let answer = try await service.get("/healthz", headers: [("Content-Length", "5")], body: "hello")
                #expect(answer.status == 413)
                #expect(answer.text == "this service takes no request bodies\n")
            }
        }
    }

    @Test func aChunkedBodyIsRefusedAndTheConnectionClosed() async throws {
        try await withTemporaryDirectory { directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let port = service.port
                let (head, closed) = try await offThePool { () -> (String, Bool) in
                    let socket = try LoopbackSocket(port: port)
                    defer { socket.close() }
                    try socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
                    let answer = socket.receiveUntilClosed(timeout: 30)
                    return (answer.text, answer.closed)
                }
                #expect(head.hasPrefix("HTTP/1.1 413"), "\(head)")
                #expect(head.lowercased().contains("connection: close"))
                #expect(closed, "the service closed the connection instead of draining the body")
            }
        }
    }

    @Test func overlongPathsAre414() async throws {
        try await withTemporaryDirectory { directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let answer = try await service.get(service.path(URL(string: "http://127.0.0.1/" + String(repeating: "a", count: 5000))!))
                #expect(answer.status == 414)
                #expect(answer.text.contains("over the limit of 4096"))
            }
        }
    }

    @Test func aClientTricklingItsRequestIsDisconnected() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.clientIdleTimeout = 1
            try await withImageService(configuration, reach: .socket) { service in
                let port = service.port
                // A request head that never ends, one header line every 200 ms.
                let outcome = try await offThePool { () -> (closed: Bool, linesSent: Int) in
                    let socket = try LoopbackSocket(port: port)
                    defer { socket.close() }
                    try socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    for line in 0..<150 {
                        usleep(200_000)
                        guard (try? socket.send("X-Slow-\(line): 1\r\n")) != nil else { return (true, line) }
                        if socket.isClosedByPeer() { return (true, line) }
                    }
                    return (false, 150)
                }
                #expect(outcome.closed, "the connection was still open after 30 s of trickling")
                // Cut off after about the idle timeout (1 s), with room for a loaded machine.
                #expect(outcome.linesSent < 100)
                #expect(try await service.get("/healthz").status == 200, "the service still answers others")
            }
        }
    }

    /// A flood of idle connections cannot lock other clients out: past the limit, each new
    /// connection takes the place of the one idle the longest.
    @Test func idleConnectionsPastTheLimitMakeRoomForNewOnes() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.maxConnections = 8
            // Longer than the test waits: only the limit may close the idle connections.
            configuration.clientIdleTimeout = 600
            try await withImageService(configuration, reach: .socket) { service in
                let port = service.port
                let closed = try await offThePool { () -> Int in
                    let idle = try (0..<40).map { _ in try LoopbackSocket(port: port) }
                    defer { for socket in idle { socket.close() } }
                    return LoopbackSocket.waitUntilClosed(idle, count: 32, timeout: 60)
                }
                #expect(closed >= 32, "only \(closed) of 40 idle connections were closed for room")
                #expect(try await service.get("/healthz").status == 200)
                let metrics = try await service.get("/metrics").text
                #expect(metrics.contains("kf_connections_closed_idle_total"), "\(metrics)")
            }
        }
    }

    /// When every connection has a request in flight, a new one is answered 503 and closed.
    @Test func aConnectionPastTheLimitOfBusyOnesIs503() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.maxConnections = 2
            configuration.retryAfter = 3
            // The hanging fetches must outlast the test: closing their clients cancels them.
            configuration.fetchTimeout = 600
            try await withImageService(configuration, reach: .socket) { service in
                let port = service.port
                let paths = (1...2).map { service.path(origin.url("/hang?n=\($0)"), "-") }
                let busy = try paths.map { path in
                    let socket = try LoopbackSocket(port: port)
                    try socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    return socket
                }
                defer { for socket in busy { socket.close() } }
                // Two sources, so that neither request joins the other's fetch.
                try await origin.wait { ($0.requests["/hang"] ?? 0) == 2 }
                let answer = try await LoopbackSocket.exchange(port: port, timeout: 30 * SanitizerAllowance.time)
                #expect(answer.text.hasPrefix("HTTP/1.1 503"), "\(answer.text)")
                #expect(answer.text.contains("Retry-After: 3"))
                #expect(answer.text.contains("2 connections have requests in flight"))
                #expect(answer.closed)
            }
        }
    }

    /// A client pushing a body is cut off after the limit, however much it sends.
    @Test func aRequestBodyFloodIsCutAfterTheLimit() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.maxRequestBodyBytes = 4096
            try await withImageService(configuration, reach: .socket) { service in
                let port = service.port
                let outcome = try await offThePool { () -> (sent: Int, cutOff: Bool) in
                    let socket = try LoopbackSocket(port: port)
                    defer { socket.close() }
                    try socket.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000000\r\n\r\n")
                    // Far more than loopback's socket buffers hold: only a closed connection stops it.
                    return socket.sendUntilCutOff([UInt8](repeating: 0x61, count: 65_536), limit: 256 * 1024 * 1024)
                }
                #expect(outcome.cutOff, "the service read \(outcome.sent) bytes of body without closing")
                #expect(try await service.get("/healthz").status == 200)
            }
        }
    }

    /// An HTTP/1.0 request without keep-alive ends its connection with the answer.
    @Test func anHTTP10RequestWithoutKeepAliveClosesTheConnection() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.clientIdleTimeout = 600
            try await withImageService(configuration, reach: .socket) { service in
                let port = service.port
                let answer = try await LoopbackSocket.exchange(port: port, sending: "GET /healthz HTTP/1.0\r\n\r\n", timeout: 60)
                #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text)")
                #expect(answer.text.lowercased().contains("connection: close"))
                #expect(answer.closed, "the connection stayed open after an HTTP/1.0 answer")
            }
        }
    }

    /// Nothing sent after a request that ends the connection is served.
    @Test func aRequestPipelinedAfterAClosingAnswerIsNotServed() async throws {
        try await withTemporaryDirectory { directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let port = service.port
                let answer = try await LoopbackSocket.exchange(
                    port: port,
                    sending: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello"
                        + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", timeout: 60)
                #expect(answer.text.hasPrefix("HTTP/1.1 413"), "\(answer.text)")
                #expect(answer.text.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer only: \(answer.text)")
                #expect(answer.closed)
            }
        }
    }

    @Test func anHTTP11RequestWithoutHostIs400() async throws {
        try await withTemporaryDirectory { directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let port = service.port
                let answer = try await LoopbackSocket.exchange(port: port, sending: "GET /healthz HTTP/1.1\r\n\r\n", timeout: 60)
                #expect(answer.text.hasPrefix("HTTP/1.1 400"), "\(answer.text)")
                #expect(answer.text.hasSuffix("an HTTP/1.1 request must name its Host\n"))
                #expect(answer.closed)
            }
        }
    }
}
