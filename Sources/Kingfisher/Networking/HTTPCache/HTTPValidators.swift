// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The validators of a stored response (RFC 9110 §8.8), which a conditional request sends back
/// so that the origin can answer `304 Not Modified` instead of the body.
package struct HTTPValidators: Hashable, Sendable, Codable {
    /// The `ETag`, as received (quotes and `W/` included).
    package var entityTag: String?
    /// The `Last-Modified` date, as received.
    package var lastModified: String?

    /// The validators of a response's fields; `nil` when it has neither.
    init?(entityTag: String?, lastModified: String?) {
        guard entityTag != nil || lastModified != nil else { return nil }
        self.entityTag = entityTag
        self.lastModified = lastModified
    }

    /// Makes `request` conditional: `If-None-Match` with the entity tag, `If-Modified-Since`
    /// with the date (both when both are known; the origin prefers the tag).
    func apply(to request: inout URLRequest) {
        if let entityTag { request.setValue(entityTag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
    }

    /// The validator an `If-Range` can carry: a strong entity tag, else the date (a weak tag
    /// never matches a range request).
    var rangeValidator: String? {
        if let entityTag, !entityTag.hasPrefix("W/") { return entityTag }
        return lastModified
    }
}
