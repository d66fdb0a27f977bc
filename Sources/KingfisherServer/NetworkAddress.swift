// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An IPv4 or IPv6 address, and whether a service fetching untrusted URLs may connect to it.
struct NetworkAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    let bytes: [UInt8]

    /// The address written as `text` (dotted IPv4, or IPv6 with or without brackets); `nil` for
    /// a host name.
    init?(literal text: some StringProtocol) {
        var text = String(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        return inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? "?"
    }

    /// Why the address is not on the public internet (`loopback`, `private`, `link-local`, …),
    /// or `nil` when it is.
    var nonPublicKind: String? {
        if bytes.count == 4 { return Self.nonPublicKindV4(bytes) }
        // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible forms carry an IPv4 address.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return Self.nonPublicKindV4(Array(bytes[12..<16]))
        }
        if bytes.allSatisfy({ $0 == 0 }) { return "unspecified" }
        if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return "loopback" }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return Self.nonPublicKindV4(Array(bytes[12..<16])) ?? "IPv4-compatible" }
        if bytes[0] & 0xFE == 0xFC { return "private (unique local)" }
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return "link-local" }
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0xC0 { return "private (site-local)" }
        if bytes[0] == 0xFF { return "multicast" }
        // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) embed IPv4 addresses.
        if bytes[0] == 0x00, bytes[1] == 0x64, bytes[2] == 0xFF, bytes[3] == 0x9B {
            return Self.nonPublicKindV4(Array(bytes[12..<16]))
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 { return Self.nonPublicKindV4(Array(bytes[2..<6])) }
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] == 0x0D, bytes[3] == 0xB8 { return "documentation" }
        return nil
    }

    private static func nonPublicKindV4(_ b: [UInt8]) -> String? {
        switch (b[0], b[1]) {
        case (0, _): return "unspecified"
        case (127, _): return "loopback"
        case (10, _), (172, 16...31), (192, 168): return "private"
        case (100, 64...127): return "private (carrier-grade NAT)"
        case (169, 254): return "link-local"
        case (192, 0) where b[2] == 0: return "reserved"
        case (198, 18...19): return "reserved (benchmarking)"
        case (224...239, _): return "multicast"
        case (240...255, _): return "reserved"
        default: return nil
        }
    }
}
