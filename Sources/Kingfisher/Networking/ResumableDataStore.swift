// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The partial bodies of broken downloads, kept in memory so that the next download of the same
/// URL asks only for the rest (`Range: bytes=N-` with `If-Range`), as Nuke does.
///
/// Only bodies an origin can resume are kept: a `200` (or a `206` that was itself a resumption)
/// with a strong `ETag` or a `Last-Modified`, and `Accept-Ranges: bytes` for a `200`. Bounded in
/// total bytes (the oldest go first) and in age: an entry older than ``lifetime`` is dropped
/// when next looked at.
final class ResumableDataStore: Sendable {
    /// One kept partial body.
    struct Entry: Sendable {
        /// The bytes received, from the start of the body.
        var data: Data
        /// What `If-Range` sends: the origin answers `206` only while it still matches.
        var validator: String
        var storedAt: ContinuousClock.Instant
    }

    private struct State {
        var entries: [URL: Entry] = [:]
        var bytes = 0
        var limit: Int
    }

    /// How long a partial body stays usable. 10 minutes.
    static let lifetime: Duration = .seconds(600)

    private let state: Locked<State>

    init(limit: Int) {
        state = Locked(State(limit: limit))
    }

    /// The most bytes kept for all URLs together; 0 keeps nothing (resuming is off).
    var limit: Int {
        get { state.withLock { $0.limit } }
        set {
            state.withLock { state in
                state.limit = max(0, newValue)
                Self.trim(&state)
            }
        }
    }

    /// Keeps the partial body `data` of the response `head` to a request for `url`, when the
    /// origin can resume it (see the type's comment); `resumedValidator` is the validator of the
    /// resumption it came from, if it was one.
    func keep(_ data: Data, of head: TransportResponse, for url: URL, resumedValidator: String?) {
        guard !data.isEmpty else { return }
        let validator: String?
        switch head.statusCode {
        case 200 where head.value(forHTTPHeaderField: "Accept-Ranges")?.lowercased().contains("bytes") == true:
            validator =
                HTTPValidators(
                    entityTag: head.value(forHTTPHeaderField: "ETag"),
                    lastModified: head.value(forHTTPHeaderField: "Last-Modified"))?.rangeValidator
        case 206:
            validator = resumedValidator
        default:
            validator = nil
        }
        guard let validator else { return }
        state.withLock { state in
            guard data.count <= state.limit else { return }
            state.bytes -= state.entries[url]?.data.count ?? 0
            state.entries[url] = Entry(data: data, validator: validator, storedAt: .now)
            state.bytes += data.count
            Self.trim(&state)
        }
    }

    /// Takes (removes and returns) the partial body kept for `url`, unless it is too old.
    func take(for url: URL) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: url) else { return nil }
            state.bytes -= entry.data.count
            return ContinuousClock.now - entry.storedAt < Self.lifetime ? entry : nil
        }
    }

    /// Drops the oldest entries while over the limit.
    private static func trim(_ state: inout State) {
        while state.bytes > state.limit, let oldest = state.entries.min(by: { $0.value.storedAt < $1.value.storedAt }) {
            state.entries[oldest.key] = nil
            state.bytes -= oldest.value.data.count
        }
    }

    /// The request asking for what follows `entry`: `Range` from its end, `If-Range` with its
    /// validator.
    static func resuming(_ request: URLRequest, after entry: Entry) -> URLRequest {
        var request = request
        request.setValue("bytes=\(entry.data.count)-", forHTTPHeaderField: "Range")
        request.setValue(entry.validator, forHTTPHeaderField: "If-Range")
        return request
    }

    /// Whether `response` is the rest of `entry`: a `206` whose `Content-Range` starts where the
    /// kept bytes end.
    static func continues(_ entry: Entry, with response: TransportResponse) -> Bool {
        guard response.statusCode == 206, let range = response.value(forHTTPHeaderField: "Content-Range"),
            range.hasPrefix("bytes ")
        else { return false }
        let start = range.dropFirst(6).prefix { $0 != "-" }
        return Int(start) == entry.data.count
    }
}
