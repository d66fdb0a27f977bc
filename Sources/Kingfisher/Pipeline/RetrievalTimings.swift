// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Where a retrieval's time went.
public struct RetrievalTimings: Sendable, Equatable {
    /// Searching the tiers, up to the one that answered (or all of them).
    public var lookup: Duration = .zero
    /// Waiting for the source: a download from its request to its last byte (redirects
    /// included), or the data provider's load; `nil` when a tier answered. Time spent waiting
    /// for another process's fetch (a tier's single flight) counts here too.
    public var fetch: Duration?
    /// Decoding and processing the original; `nil` for a processed image found in a tier.
    public var processing: Duration?
    /// From the request to the answer, storing in the tiers included.
    public var total: Duration = .zero

    /// Timings of nothing yet.
    public init() {}
}
