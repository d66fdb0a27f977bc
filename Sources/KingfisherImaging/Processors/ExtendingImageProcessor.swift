// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Centres images on a canvas of at least a size, filling the rest with a colour (see
/// ``KingfisherWrapper/extended(to:backgroundColor:)``). An output over the pixel limit throws
/// ``ImageProcessingError/outputTooLarge(processor:width:height:frameCount:limit:)``.
public struct ExtendingImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.ExtendingImageProcessor(<size>)`, with `_<rgba>` for a colour.
    public let identifier: String
    /// The least size of the canvas, in points.
    public let size: CGSize
    /// The canvas colour. Default `nil`: transparent.
    public let backgroundColor: KFCrossPlatformColor?

    /// Creates a processor extending images to `size` points on `backgroundColor` (default
    /// `nil`: transparent).
    public init(size: CGSize, backgroundColor: KFCrossPlatformColor? = nil) {
        self.size = size
        self.backgroundColor = backgroundColor
        identifier =
            "com.onevcat.Kingfisher.ExtendingImageProcessor(\(size.identifierDescription))"
            + (backgroundColor.map { "_\($0.rgbaDescription)" } ?? "")
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { image in
            let target = image.pixelSize(of: size)
            try checkOutput(
                (max(image.pixelWidth, target.width), max(image.pixelHeight, target.height)), frames: image.heldFrameCount, in: context)
            return image.kf.extended(to: size, backgroundColor: backgroundColor)
        }
    }
}
