// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The `Cache-Control` directives of a response that a private image cache acts on
/// (RFC 9111 §5.2.2, RFC 8246 for `immutable`).
struct CacheControl: Equatable, Sendable {
    /// `max-age`, in seconds; `nil` when absent or malformed.
    var maxAge: Int?
    /// `no-store`: the response must not be written to disk.
    var noStore = false
    /// `no-cache`: stored, but revalidated before every use.
    var noCache = false
    /// `must-revalidate`: once stale, never used without a successful revalidation (not even
    /// when the origin cannot be reached).
    var mustRevalidate = false
    /// `immutable`: the body never changes while fresh.
    var immutable = false

    /// The directives of all `Cache-Control` fields of a response, joined.
    init(_ fields: [String]) {
        for field in fields {
            for directive in field.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
                let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""]) : nil
                switch name {
                case "max-age":
                    // A repeated or invalid max-age makes the response stale (RFC 9111 §4.2.1).
                    maxAge = maxAge == nil ? argument.flatMap { Int($0) }.map { max(0, $0) } ?? 0 : 0
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "must-revalidate", "proxy-revalidate": mustRevalidate = true
                case "immutable": immutable = true
                default: break
                }
            }
        }
    }
}
