// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a retrieval refuses to decode or make: checked from the image's header and from each
/// processor's output size, before pixels are allocated.
public struct RetrievalLimits: Sendable, Equatable {
    /// The most pixels (width × height, per frame) a source may have. Default
    /// `ImageCreatingOptions/defaultMaxPixelCount` (100 000 000).
    public var maxPixelCount: Int
    /// The most frames an animated source may have. Default
    /// `ImageCreatingOptions/defaultMaxFrameCount` (5 000).
    public var maxFrameCount: Int
    /// The most pixels (frames held at once counted) a processor may make; `nil`:
    /// ``maxPixelCount``. Default `nil`.
    public var maxResultPixelCount: Int?
    /// The retrieval's share of a `PixelMemoryBudget`, charged by the decoder and the
    /// processors; `nil`: none. Default `nil`.
    public var pixelMemory: PixelMemoryBudget.Account?

    /// Limits with the defaults above unless given.
    public init(
        maxPixelCount: Int = ImageCreatingOptions.defaultMaxPixelCount,
        maxFrameCount: Int = ImageCreatingOptions.defaultMaxFrameCount,
        maxResultPixelCount: Int? = nil,
        pixelMemory: PixelMemoryBudget.Account? = nil
    ) {
        self.maxPixelCount = maxPixelCount
        self.maxFrameCount = maxFrameCount
        self.maxResultPixelCount = maxResultPixelCount
        self.pixelMemory = pixelMemory
    }
}
