// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Which step of a ``RetrievalPipeline`` answered a request.
public enum RetrievalAnswerer: Sendable, Hashable, CustomStringConvertible {
    /// The processed image was in the tier of this name (``CacheTier/name``).
    case processedTier(String)
    /// The original was in the tier of this name, and was processed.
    case originalTier(String)
    /// The source itself: downloaded, or read from its data provider, and processed.
    case source

    /// `processed image from memory`, `original from disk`, `source`.
    public var description: String {
        switch self {
        case .processedTier(let name): "processed image from \(name)"
        case .originalTier(let name): "original from \(name)"
        case .source: "source"
        }
    }
}
