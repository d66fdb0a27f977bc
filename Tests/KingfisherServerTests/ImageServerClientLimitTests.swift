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
}

/// A blocking TCP connection to 127.0.0.1, for tests that must control every byte.
struct LoopbackSocket {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw Failure(description: "connect() to port \(port) failed")
        }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure(description: "send() failed") }
    }

    /// Whether the peer has closed the connection (a read returns end of file or a reset),
    /// without waiting.
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let received = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
        return received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    func close() {
        Glibc.close(descriptor)
    }

    /// Everything the peer sends until it closes the connection, or until `timeout` seconds
    /// pass; and whether it closed.
    func receiveUntilClosed(timeout: Int) -> (text: String, closed: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            // Waits for bytes or the close (poll), at most until the deadline.
            let left = deadline - ContinuousClock.now
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&ready, 1, milliseconds) > 0 else { continue }
            let received = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if received == 0 { return (String(decoding: bytes, as: UTF8.self), true) }
            if received > 0 {
                bytes += buffer[0..<received]
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return (String(decoding: bytes, as: UTF8.self), true)
            }
        }
        return (String(decoding: bytes, as: UTF8.self), false)
    }
}
