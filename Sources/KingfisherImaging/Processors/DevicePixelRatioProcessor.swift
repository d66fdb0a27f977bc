// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Multiplies every size of the ``ImageProcessorChain`` it is a step of by a device pixel ratio
/// (the grammar's `dpr(N)`, wherever it stands in the chain): the chain runs with the context's
/// scale factor times ``ratio``, so sizes in points become that many more pixels. On its own, or
/// composed with `|>` (which makes a processor of closures), it passes images through: Kingfisher
/// code sets the `scaleFactor` option instead. A ratio outside 1…5, or not finite, is refused
/// (``ImageProcessingError/invalidParameter(processor:detail:)``).
public struct DevicePixelRatioProcessor: ProcessingContextAdjusting {
    /// The largest ratio: 5.
    public static let maxRatio: CGFloat = 5

    /// `com.onevcat.Kingfisher.DevicePixelRatioProcessor(<ratio>)`.
    public let identifier: String
    /// The factor sizes are multiplied by.
    public let ratio: CGFloat

    /// Creates the step of a chain multiplying its sizes by `ratio`.
    public init(ratio: CGFloat) {
        self.ratio = ratio
        identifier = "com.onevcat.Kingfisher.DevicePixelRatioProcessor(\(ratio))"
    }

    /// Multiplies the chain's scale by the ratio.
    public func adjust(_ context: inout ImageProcessingContext) throws {
        guard ratio.isFinite, ratio >= 1, ratio <= Self.maxRatio else {
            throw ImageProcessingError.invalidParameter(
                processor: identifier, detail: "a ratio of \(ratio) is outside 1...\(Self.maxRatio)")
        }
        context.imageCreatingOptions.scale *= ratio
    }
}
