// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What an HTTP cache keeps with a cached original to decide when it may be used without asking
/// the origin, and how to ask (RFC 9111): the response's caching fields and when it arrived.
///
/// Kept as JSON beside the original in the disk cache, and in memory; a `304` replaces the
/// fields it carries and restarts the age.
package struct HTTPCacheRecord: Codable, Equatable, Sendable {
    /// The caching fields of the response, by lowercase name: `cache-control`, `expires`,
    /// `date`, `etag`, `last-modified`.
    var fields: [String: String]
    /// When the response arrived.
    package var responseTime: Date
    /// The response's age on arrival (RFC 9111 §4.2.3 `corrected_initial_age`), in seconds.
    var initialAge: TimeInterval
    /// The processor identifiers of the variants cached from this original (`""`: the original
    /// itself), whose expiration a revalidation extends too.
    var variants: Set<String> = []

    private static let keptFields = ["cache-control", "expires", "date", "etag", "last-modified"]

    /// The record for `response`, requested at `requestTime` and received at `responseTime`.
    package init(response: TransportResponse, requestTime: Date, responseTime: Date) {
        fields = [:]
        self.responseTime = responseTime
        initialAge = 0
        take(response, requestTime: requestTime, responseTime: responseTime)
    }

    /// A record of `fields`, received at `responseTime` with no age: what is known of a
    /// response without having it.
    package init(fields: [String: String], responseTime: Date) {
        self.fields = fields
        self.responseTime = responseTime
        initialAge = 0
    }

    /// The record after a `304` for it: the 304's caching fields replace the stored ones
    /// (RFC 9111 §4.3.4), and the age restarts from the 304's.
    package func revalidated(by response: TransportResponse, requestTime: Date, responseTime: Date) -> HTTPCacheRecord {
        var record = self
        record.take(response, requestTime: requestTime, responseTime: responseTime)
        return record
    }

    private mutating func take(_ response: TransportResponse, requestTime: Date, responseTime: Date) {
        for name in Self.keptFields {
            let values = response.headerFields.filter { $0.name.lowercased() == name }.map(\.value)
            if !values.isEmpty { fields[name] = values.joined(separator: ", ") }
        }
        self.responseTime = responseTime
        // RFC 9111 §4.2.3: the older of what the clocks say and what Age says plus the delay.
        let apparentAge = max(0, responseTime.timeIntervalSince(date ?? responseTime))
        let ageValue = response.value(forHTTPHeaderField: "Age").flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        initialAge = max(apparentAge, max(0, ageValue) + max(0, responseTime.timeIntervalSince(requestTime)))
    }

    // MARK: Reading the fields

    var cacheControl: CacheControl { CacheControl(fields["cache-control"].map { [$0] } ?? []) }

    /// The origin's `Date`, when valid.
    var date: Date? { fields["date"].flatMap(HTTPDate.parse) }

    /// The validators a revalidation sends; `nil` when the response had none (it can then only
    /// be downloaded again).
    package var validators: HTTPValidators? { HTTPValidators(entityTag: fields["etag"], lastModified: fields["last-modified"]) }

    /// How long the response stays fresh from its creation, in seconds (RFC 9111 §4.2.1):
    /// `max-age`, else `Expires` minus `Date` (an invalid `Expires` means already stale), else a
    /// tenth of the time since `Last-Modified`, as browsers guess, else 0.
    package var freshnessLifetime: TimeInterval {
        if let maxAge = cacheControl.maxAge { return TimeInterval(maxAge) }
        if let expires = fields["expires"] {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }
            return max(0, expiry.timeIntervalSince(date ?? responseTime))
        }
        if let lastModified = fields["last-modified"].flatMap(HTTPDate.parse) {
            return max(0, (date ?? responseTime).timeIntervalSince(lastModified) / 10)
        }
        return 0
    }

    /// The response's age at `now`, in seconds.
    package func age(at now: Date) -> TimeInterval {
        initialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// Whether the cached image may be used at `now` without asking the origin.
    func isFresh(at now: Date) -> Bool {
        !cacheControl.noCache && age(at: now) < freshnessLifetime
    }

    /// Whether the response said `no-cache`: every use must be revalidated first.
    package var requiresRevalidation: Bool { cacheControl.noCache }

    /// Whether the response may be written to disk at all.
    package var isStorable: Bool { !cacheControl.noStore }

    /// Whether a stale copy may be used when its revalidation cannot reach the origin.
    package var mayServeStale: Bool { !cacheControl.mustRevalidate && !cacheControl.noCache }
}
