// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import NIOCore
import NIOPosix

@testable import Kingfisher

#if canImport(Glibc)
    import Glibc
#endif

/// A port on 127.0.0.1 that refuses every connection for as long as `body` runs.
///
/// A socket is bound to the port but never listens: the kernel answers a connect with a reset
/// (ECONNREFUSED) at once, however loaded the machine is, and no other test can bind the port
/// meanwhile. A port merely found free and closed again can be taken by another test's listener
/// in between, and a connection to that listener hangs until a timeout instead of being refused.
package func withRefusingPort<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Int) async throws -> T
) async throws -> T {
    let (socket, port) = try boundLoopbackSocket()
    defer { close(socket) }
    return try await body(port)
}

/// A port on 127.0.0.1 that accepts connections (the kernel completes them) but never reads
/// or answers, for as long as `body` runs: a server that hangs.
package func withSilentPort<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Int) async throws -> T
) async throws -> T {
    let (socket, port) = try boundLoopbackSocket()
    defer { close(socket) }
    guard listen(socket, 64) == 0 else { throw RefusingPortError(description: "listen: \(String(cString: strerror(errno)))") }
    return try await body(port)
}

/// A TCP socket bound to 127.0.0.1 on a port the kernel chose, and that port.
private func boundLoopbackSocket() throws -> (Int32, Int) {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw RefusingPortError(description: "socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
        }
    }
    guard bound else {
        let error = RefusingPortError(description: "bind 127.0.0.1:0: \(String(cString: strerror(errno)))")
        close(socket)
        throw error
    }
    return (socket, Int(UInt16(bigEndian: address.sin_port)))
}

package struct RefusingPortError: Error, CustomStringConvertible {
    package var description: String
}

/// A port nothing listens on at the moment, for a server a test starts and may restart on the
/// same port.
///
/// Chosen below the kernel's ephemeral range (`ip_local_port_range`), from which every port-0
/// listener and every outgoing connection takes its port: a port from that range, released while
/// its server restarts, can be taken in between by any other test. Here only a test starting a
/// server could take it, and this process never hands out one port twice.
package func freeLoopbackPort() async throws -> Int {
    let ephemeralStart =
        (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
        .flatMap { $0.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } } ?? 32768
    let candidates = 10_000..<max(ephemeralStart, 10_001)
    for _ in 0..<200 {
        let port = Int.random(in: candidates)
        guard handedOutPorts.withLock({ $0.insert(port).inserted }) else { continue }
        if let channel = try? await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: port).get()
        {
            try await channel.close()
            return port
        }
    }
    throw RefusingPortError(description: "no free port on 127.0.0.1 below \(ephemeralStart) after 200 tries")
}

private let handedOutPorts = Locked<Set<Int>>([])
