// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The hosts that bypass a proxy, in the syntax of the `NO_PROXY` environment variable as curl
/// reads it: comma-separated (spaces allowed) host names, domain suffixes and IP literals, each
/// with an optional `:port`; `*` alone means every host.
///
/// `example.com` and `.example.com` both match `example.com` and all its subdomains (but not
/// `badexample.com`). IP literals match only that address (no CIDR ranges), IPv6 ones in
/// brackets when they carry a port (`[::1]:8080`). Nothing is excluded implicitly: loopback
/// addresses go through the proxy unless listed.
struct NoProxyList: Sendable, Hashable {
    private struct Entry: Hashable {
        /// Lowercased, without leading dots or brackets.
        var host: String
        var port: Int?
    }

    private let entries: [Entry]
    private let matchesAll: Bool

    /// The empty list: nothing bypasses the proxy.
    static let none = NoProxyList("")

    init(_ text: String) {
        var entries: [Entry] = []
        var all = false
        for item in text.split(separator: ",") {
            let item = item.trimmingCharacters(in: .whitespaces)
            if item == "*" {
                all = true
                continue
            }
            if let entry = Self.entry(item) { entries.append(entry) }
        }
        self.entries = entries
        matchesAll = all
    }

    /// `host[:port]`, `.domain`, `[v6]:port` or a bare IPv6 literal (which has colons of its own).
    private static func entry(_ item: String) -> Entry? {
        var host = Substring(item)
        var port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            port = rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil
            host = host[host.index(after: host.startIndex)..<close]
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.lastIndex(of: ":") {
            port = Int(host[host.index(after: colon)...])
            host = host[..<colon]
        }
        while host.hasPrefix(".") { host = host.dropFirst() }
        while host.hasSuffix(".") { host = host.dropLast() }
        return host.isEmpty ? nil : Entry(host: host.lowercased(), port: port)
    }

    /// Whether a request to `host` on `port` goes directly rather than through the proxy.
    func matches(host: String, port: Int) -> Bool {
        if matchesAll { return true }
        var host = Substring(host.lowercased())
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        while host.hasSuffix(".") { host = host.dropLast() }
        // An address is no domain: `2.3` must not match `10.1.2.3`.
        let isAddress = host.contains(":") || host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
        return entries.contains { entry in
            if let entryPort = entry.port, entryPort != port { return false }
            return host == entry.host || !isAddress && host.hasSuffix("." + entry.host)
        }
    }
}
