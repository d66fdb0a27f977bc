import Foundation
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
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw RefusingPortError(description: "socket: \(String(cString: strerror(errno)))") }
    defer { close(socket) }
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
    guard bound else { throw RefusingPortError(description: "bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
    return try await body(Int(UInt16(bigEndian: address.sin_port)))
}

struct RefusingPortError: Error, CustomStringConvertible {
    var description: String
}
