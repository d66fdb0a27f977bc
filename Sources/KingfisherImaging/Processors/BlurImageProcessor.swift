// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Blurs images like a Gaussian with standard deviation `blurRadius` points (times
/// ``ImageProcessingContext/scaleFactor`` in pixels), by three box blurs as Kingfisher does. A radius over
/// ``maxBlurRadius`` pixels, or not finite, is refused (``ImageProcessingError/invalidParameter(processor:detail:)``) rather than attempted.
public struct BlurImageProcessor: ImageProcessing {
    /// The largest radius blurred, in pixels: 1 000 (a radius this large already averages a
    /// 6 000-pixel neighbourhood).
    public static let maxBlurRadius: CGFloat = 1_000

    /// `com.onevcat.Kingfisher.BlurImageProcessor(<radius>)`.
    public let identifier: String
    /// The blur radius in points.
    public let blurRadius: CGFloat

    /// Creates a blur processor.
    public init(blurRadius: CGFloat) {
        self.blurRadius = blurRadius
        identifier = "com.onevcat.Kingfisher.BlurImageProcessor(\(blurRadius))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        let radius = blurRadius * context.scaleFactor
        guard radius.isFinite, radius <= Self.maxBlurRadius else {
            throw ImageProcessingError.invalidParameter(
                processor: identifier, detail: "a blur radius of \(radius) pixels is over the limit of \(Self.maxBlurRadius)")
        }
        return try processDecodingData(item, in: context) { $0.kf.blurred(withRadius: radius) }
    }
}
