// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a retrieval refuses to decode: checked from the image's header, before its pixels are
/// allocated.
public struct RetrievalLimits: Sendable, Equatable {
    /// The most pixels (width × height, per frame) a source may have. Default
    /// `ImageCreatingOptions/defaultMaxPixelCount` (100 000 000).
    public var maxPixelCount: Int
    /// The most frames an animated source may have. Default
    /// `ImageCreatingOptions/defaultMaxFrameCount` (5 000).
    public var maxFrameCount: Int

    /// Limits with the defaults above unless given.
    public init(
        maxPixelCount: Int = ImageCreatingOptions.defaultMaxPixelCount,
        maxFrameCount: Int = ImageCreatingOptions.defaultMaxFrameCount
    ) {
        self.maxPixelCount = maxPixelCount
        self.maxFrameCount = maxFrameCount
    }
}
