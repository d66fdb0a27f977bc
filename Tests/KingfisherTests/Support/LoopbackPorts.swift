import Foundation
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// A port on 127.0.0.1 that refuses every connection for as long as `body` runs.
///
/// A socket is bound to the port but never listens: the kernel answers a connect with a reset
/// (ECONNREFUSED) at once, however loaded the machine is, and no other test can bind the port
/// meanwhile. A port merely found free and closed again can be taken by another test's listener
/// in between, and a connection to that listener hangs until a timeout instead of being refused.
func withRefusingPort<T>(isolation: isolated (any Actor)? = #isolation,
                         _ body: (Int) async throws -> T) async throws -> T {
    let (socket, port) = try boundLoopbackSocket()
    defer { close(socket) }
    return try await body(port)
}

/// A port on 127.0.0.1 that accepts connections (the kernel completes them) but never reads
/// or answers, for as long as `body` runs: a server that hangs.
func withSilentPort<T>(isolation: isolated (any Actor)? = #isolation,
                       _ body: (Int) async throws -> T) async throws -> T {
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

struct RefusingPortError: Error, CustomStringConvertible {
    var description: String
}

/// A port nothing listens on at the moment, for a server a test starts: bound by the kernel's
/// choice, then released (another test could take it in between, which the server's start then
/// reports).
func freeLoopbackPort() async throws -> Int {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .bind(host: "127.0.0.1", port: 0).get()
    let port = channel.localAddress!.port!
    try await channel.close()
    return port
}
