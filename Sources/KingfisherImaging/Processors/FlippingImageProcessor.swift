// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Mirrors images left to right or top to bottom, moving pixels exactly.
public struct FlippingImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.FlippingImageProcessor(<horizontal|vertical>)`.
    public let identifier: String
    /// Which way images are mirrored.
    public let direction: FlipDirection

    /// Creates a processor mirroring images in `direction`.
    public init(direction: FlipDirection) {
        self.direction = direction
        identifier = "com.onevcat.Kingfisher.FlippingImageProcessor(\(direction.rawValue))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { $0.kf.flipped(direction) }
    }
}
