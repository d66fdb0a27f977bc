// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A prefix of source URLs (`https://images.example.com/public/`), matched by its parts, never as
/// text: the same scheme, host and port, and a path under the prefix's path at a segment
/// boundary. As text, `http://internal:8080` would also match
/// `http://internal:8080@169.254.169.254/`, and `…/public/../admin` would match `…/public/`.
struct SourcePrefix: Sendable, Hashable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int
    /// The path the source's path must be, or be under; always ends with `/`.
    let path: String
    let description: String

    /// Why a setting is not a usable prefix.
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    init(_ text: String) throws(Invalid) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host?.lowercased(), !host.isEmpty, url.user == nil, url.query == nil, url.fragment == nil,
            let parts = Self.parts(of: url)
        else {
            throw Invalid(description: "'\(text)' is not a source prefix: use scheme://host[:port][/path/]")
        }
        self.scheme = scheme
        self.host = host
        self.port = parts.port
        path = parts.path.hasSuffix("/") ? parts.path : parts.path + "/"
        description = text
    }

    /// Whether `url` is under this prefix.
    func contains(_ url: URL) -> Bool {
        guard url.scheme?.lowercased() == scheme, url.host?.lowercased() == host, let parts = Self.parts(of: url),
            parts.port == port
        else { return false }
        return parts.path.hasPrefix(path) || parts.path + "/" == path
    }

    /// The port (the scheme's default when absent) and the path, percent-decoded; `nil` for a
    /// path with `.` or `..` segments (plain or encoded), which the origin could resolve out of
    /// the prefix.
    static func parts(of url: URL) -> (port: Int, path: String)? {
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        let raw = url.path(percentEncoded: true)
        let decoded = raw.removingPercentEncoding ?? raw
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        return (port, decoded.isEmpty ? "/" : decoded)
    }
}
