// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Whether this machine has a way out: a default route (IPv4 or IPv6) through an interface
/// that is up, read from the kernel's files (`/proc/net/route`, `/proc/net/ipv6_route`,
/// `/sys/class/net/<interface>/operstate` and `carrier`). Linux's counterpart of the
/// "satisfied" path Kingfisher asks `NWPathMonitor` for.
struct LinkState: Sendable {
    /// Where `proc` and `sys` are: `/` on a real system; a test's directory in tests.
    let root: URL

    static let system = LinkState(root: URL(fileURLWithPath: "/"))

    /// Whether a default route goes through an interface that is up. When the route tables
    /// cannot be read at all (no `/proc`, a restricted sandbox), the state is unknown and taken
    /// as connected, so that retries are not held back by what cannot be seen.
    var isConnected: Bool {
        guard let interfaces = defaultRouteInterfaces() else { return true }
        return interfaces.contains(where: isUp)
    }

    /// Interfaces carrying a default route that is up (`RTF_UP`), loopback excluded; `nil` when
    /// neither route table can be read.
    func defaultRouteInterfaces() -> Set<String>? {
        let ipv4 = rows(of: "proc/net/route")
        let ipv6 = rows(of: "proc/net/ipv6_route")
        guard ipv4 != nil || ipv6 != nil else { return nil }
        var interfaces: Set<String> = []
        // Iface Destination Gateway Flags ...: hexadecimal, destination 0 for the default.
        for fields in (ipv4 ?? []).dropFirst() where fields.count >= 4 {
            if fields[1] == "00000000", Self.isUpRoute(fields[3]) { interfaces.insert(fields[0]) }
        }
        // destination, prefix length, source, source prefix, next hop, metric, refs, use, flags, interface.
        for fields in ipv6 ?? [] where fields.count >= 10 {
            if fields[0].allSatisfy({ $0 == "0" }), fields[1] == "00", Self.isUpRoute(fields[8]) { interfaces.insert(fields[9]) }
        }
        interfaces.remove("lo")
        return interfaces
    }

    /// Whether `interface` is up: operstate `up`, or `unknown` with a carrier (tunnels and
    /// point-to-point links report no operstate).
    func isUp(_ interface: String) -> Bool {
        guard !interface.contains("/"), interface != "lo" else { return false }
        switch text(of: "sys/class/net/\(interface)/operstate") {
        case "up": return true
        case "unknown": return text(of: "sys/class/net/\(interface)/carrier") == "1"
        default: return false
        }
    }

    private static func isUpRoute(_ hexFlags: String) -> Bool {
        (Int(hexFlags, radix: 16) ?? 0) & 0x1 != 0
    }

    /// The file's lines split into fields; `nil` when it cannot be read.
    private func rows(of path: String) -> [[String]]? {
        guard let text = text(of: path) else { return nil }
        return text.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
    }

    private func text(of path: String) -> String? {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
