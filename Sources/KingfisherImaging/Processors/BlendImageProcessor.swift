// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Draws images with a blend mode or Porter-Duff operator and an opacity over an optional
/// background colour.
public struct BlendImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.BlendImageProcessor(<mode raw value>,<alpha>)[_<rgba>]`.
    public let identifier: String
    /// The blend mode.
    public let blendMode: CGBlendMode
    /// The image's opacity, 0…1. Default 1.
    public let alpha: CGFloat
    /// The backdrop colour; `nil` (the default) is transparent.
    public let backgroundColor: KFCrossPlatformColor?

    /// Creates a blend processor; `alpha` defaults to 1 and `backgroundColor` to none.
    public init(blendMode: CGBlendMode, alpha: CGFloat = 1.0, backgroundColor: KFCrossPlatformColor? = nil) {
        self.blendMode = blendMode
        self.alpha = alpha
        self.backgroundColor = backgroundColor
        var identifier = "com.onevcat.Kingfisher.BlendImageProcessor(\(blendMode.rawValue),\(alpha))"
        if let backgroundColor { identifier += "_\(backgroundColor.rgbaDescription)" }
        self.identifier = identifier
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) {
            $0.kf.image(withBlendMode: blendMode, alpha: alpha, backgroundColor: backgroundColor)
        }
    }
}
