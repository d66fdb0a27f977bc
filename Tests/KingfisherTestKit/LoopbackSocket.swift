// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP connection to 127.0.0.1, for tests that must control every byte.
package struct LoopbackSocket {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    private let descriptor: Int32

    package init(port: Int) throws {
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

    package func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure(description: "send() failed") }
    }

    /// Whether the peer has closed the connection (a read returns end of file or a reset),
    /// without waiting.
    package func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let received = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
        return received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    package func close() {
        Glibc.close(descriptor)
    }

    /// Sends `chunk` again and again until the peer closes or resets the connection, or
    /// `limit` bytes are sent; returns the bytes sent and whether the peer cut it off.
    package func sendUntilCutOff(_ chunk: [UInt8], limit: Int) -> (sent: Int, cutOff: Bool) {
        var sent = 0
        while sent < limit {
            let written = chunk.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                return (sent, true)
            }
            sent += written
        }
        return (sent, false)
    }

    /// Waits until at least `count` of `sockets` are closed by their peer, or `timeout` seconds
    /// pass; returns how many are.
    package static func waitUntilClosed(_ sockets: [LoopbackSocket], count: Int, timeout: Int) -> Int {
        var closed = Set<Int>()
        let deadline = ContinuousClock.now + .seconds(timeout)
        while closed.count < count, ContinuousClock.now < deadline {
            var ready = sockets.enumerated().filter { !closed.contains($0.offset) }.map {
                pollfd(fd: $0.element.descriptor, events: Int16(POLLIN), revents: 0)
            }
            let open = sockets.indices.filter { !closed.contains($0) }
            guard poll(&ready, nfds_t(ready.count), 1000) > 0 else { continue }
            for (slot, index) in open.enumerated() where ready[slot].revents != 0 && sockets[index].isClosedByPeer() {
                closed.insert(index)
            }
        }
        return closed.count
    }

    /// Connects to `port`, sends `text` (if any), and returns everything the peer sends until it
    /// closes the connection or `timeout` seconds pass, and whether it closed; off the
    /// cooperative pool, since it blocks.
    package static func exchange(port: Int, sending text: String? = nil, timeout: Int = 60) async throws -> (text: String, closed: Bool) {
        try await offThePool { () -> (text: String, closed: Bool) in
            let socket = try LoopbackSocket(port: port)
            defer { socket.close() }
            if let text { try socket.send(text) }
            return socket.receiveUntilClosed(timeout: timeout)
        }
    }

    /// What the peer sends until `count` bytes arrived, it closes, or `timeout` seconds pass.
    package func receive(upTo count: Int, timeout: Int) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        let deadline = ContinuousClock.now + .seconds(timeout)
        while bytes.count < count, ContinuousClock.now < deadline {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 1000) > 0 else { continue }
            let received = recv(descriptor, &buffer, count - bytes.count, Int32(MSG_DONTWAIT))
            if received == 0 { break }
            if received > 0 { bytes += buffer[0..<received] } else if errno != EAGAIN && errno != EINTR { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Everything the peer sends until it closes the connection, or until `timeout` seconds
    /// pass; and whether it closed.
    package func receiveUntilClosed(timeout: Int) -> (text: String, closed: Bool) {
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
