// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Draws images over a colour, flattening their transparency (see
/// ``KingfisherWrapper/flattened(onto:)``): what a format without alpha needs behind a
/// transparent source.
public struct BackgroundImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.BackgroundImageProcessor(<rgba>)`.
    public let identifier: String
    /// The colour drawn behind images.
    public let color: KFCrossPlatformColor

    /// Creates a processor drawing images over `color`.
    public init(color: KFCrossPlatformColor) {
        self.color = color
        identifier = "com.onevcat.Kingfisher.BackgroundImageProcessor(\(color.rgbaDescription))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { $0.kf.flattened(onto: color) }
    }
}
