// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Fills the shape of images with a colour, letting the image show through by `fraction`.
public struct OverlayImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.OverlayImageProcessor(<rgba>_<fraction>)`.
    public let identifier: String
    /// The overlay colour.
    public let overlay: KFCrossPlatformColor
    /// How much of the image shows: 0 solid colour, 1 the image unchanged. Default 0.5.
    public let fraction: CGFloat

    /// Creates an overlay processor; `fraction` defaults to 0.5.
    public init(overlay: KFCrossPlatformColor, fraction: CGFloat = 0.5) {
        self.overlay = overlay
        self.fraction = fraction
        identifier = "com.onevcat.Kingfisher.OverlayImageProcessor(\(overlay.rgbaDescription)_\(fraction))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { $0.kf.overlaying(with: overlay, fraction: fraction) }
    }
}
