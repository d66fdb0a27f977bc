// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a ``RetrievalPipeline`` answered a request with.
public struct RetrievalResponse: Sendable {
    /// The processed image.
    public var image: KFCrossPlatformImage
    /// The original's bytes, when this retrieval read or fetched them; `nil` when the processed
    /// image came from a tier.
    public var originalData: Data?
    /// Which step answered.
    public var answeredBy: RetrievalAnswerer
    /// Where the time went.
    public var timings: RetrievalTimings
    /// How the download went, when there was one.
    public var networkMetrics: NetworkMetrics?
    /// The request's serializer, for ``data()``.
    let serializer: any CacheSerializer
    /// Whether a fetched original could be stored (a `no-store` response could not).
    package var originalMayBeStored = true

    /// The image as bytes, by the request's serializer (the default one encodes it in the
    /// original's format); `nil` when the serializer cannot make them.
    public func data() -> Data? {
        serializer.data(with: image, original: originalData)
    }
}
