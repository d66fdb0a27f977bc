// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch
import Kingfisher

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Resolves host names with `getaddrinfo`, off the cooperative thread pool.
enum HostResolver {
    /// Why a name did not resolve.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static let queue = DispatchQueue(label: "com.kingfisher-linux.server.resolver", attributes: .concurrent)

    /// Every address `host` resolves to (an address literal resolves to itself).
    static func addresses(of host: String) async throws(Failure) -> [NetworkAddress] {
        if let literal = NetworkAddress(literal: host) { return [literal] }
        return try await queue.perform { () throws(Failure) in try resolve(host).get() }
    }

    /// Every address `host` resolves to, handed to `completion` on the resolver's queue (an
    /// address literal at once): for event-loop code that must not wait for the cooperative pool.
    static func addresses(of host: String, completion: @escaping @Sendable (Result<[NetworkAddress], Failure>) -> Void) {
        if let literal = NetworkAddress(literal: host) { return completion(.success([literal])) }
        queue.async { completion(resolve(host)) }
    }

    private static func resolve(_ host: String) -> Result<[NetworkAddress], Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            return .failure(Failure(description: "\(host) does not resolve: \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [NetworkAddress] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        var raw = v4.pointee.sin_addr
                        addresses.append(NetworkAddress(bytes: withUnsafeBytes(of: &raw) { Array($0) }))
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        var raw = v6.pointee.sin6_addr
                        addresses.append(NetworkAddress(bytes: withUnsafeBytes(of: &raw) { Array($0) }))
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(Failure(description: "\(host) resolves to no address")) : .success(addresses)
    }
}
