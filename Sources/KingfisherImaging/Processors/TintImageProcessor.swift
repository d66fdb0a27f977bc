// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Composites a colour over images (use a translucent colour to tint).
public struct TintImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.TintImageProcessor(<rgba>)`.
    public let identifier: String
    /// The tint colour.
    public let tint: KFCrossPlatformColor

    /// Creates a tint processor.
    public init(tint: KFCrossPlatformColor) {
        self.tint = tint
        identifier = "com.onevcat.Kingfisher.TintImageProcessor(\(tint.rgbaDescription))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { $0.kf.tinted(with: tint) }
    }
}
