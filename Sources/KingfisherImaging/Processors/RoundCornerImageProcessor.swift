// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Rounds the corners of images (anti-aliased), optionally drawing them into `targetSize` and
/// over a background colour. Without a background the corners become transparent, so store
/// such images as PNG or WebP (`FormatIndicatedCacheSerializer/png`) to keep them.
public struct RoundCornerImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.RoundCornerImageProcessor(<radius>[_<size>][_corner(<raw>)])[_<color>]`.
    public let identifier: String
    /// The corner radius.
    public let radius: Radius
    /// Which corners are rounded. Default `.all`.
    public let roundingCorners: RectCorner
    /// The output size in points; `nil` (the default) keeps the image's size.
    public let targetSize: CGSize?
    /// What shows outside the rounded corners; `nil` (the default) is transparent.
    public let backgroundColor: KFCrossPlatformColor?

    /// Creates the processor with a radius in points; other parameters default as documented.
    public init(
        cornerRadius: CGFloat, targetSize: CGSize? = nil, roundingCorners corners: RectCorner = .all,
        backgroundColor: KFCrossPlatformColor? = nil
    ) {
        self.init(
            radius: .point(cornerRadius), targetSize: targetSize, roundingCorners: corners,
            backgroundColor: backgroundColor)
    }

    /// Creates the processor with a ``Radius``; other parameters default as documented.
    public init(
        radius: Radius, targetSize: CGSize? = nil, roundingCorners corners: RectCorner = .all,
        backgroundColor: KFCrossPlatformColor? = nil
    ) {
        self.radius = radius
        self.targetSize = targetSize
        self.roundingCorners = corners
        self.backgroundColor = backgroundColor
        var identifier = "com.onevcat.Kingfisher.RoundCornerImageProcessor(\(radius.radiusIdentifier)"
        if let targetSize { identifier += "_\(targetSize.identifierDescription)" }
        identifier += "\(corners.cornerIdentifier))"
        if let backgroundColor { identifier += "_\(backgroundColor)" }
        self.identifier = identifier
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { image in
            let size = targetSize ?? image.kf.size
            try checkOutput(image.pixelSize(of: size), frames: image.heldFrameCount, in: context)
            return image.kf.image(
                withRadius: radius, fit: size, roundingCorners: roundingCorners,
                backgroundColor: backgroundColor)
        }
    }
}
