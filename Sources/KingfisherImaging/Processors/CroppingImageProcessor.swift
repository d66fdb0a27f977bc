// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Crops images to `size` points placed at `anchor` ((0, 0) top-left, (0.5, 0.5) centre,
/// (1, 1) bottom-right; clamped to 0…1), limited to the image.
public struct CroppingImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.CroppingImageProcessor(<size>_<anchor>)`.
    public let identifier: String
    /// The size of the crop in points.
    public let size: CGSize
    /// Where the crop sits. Default (0.5, 0.5), the centre.
    public let anchor: CGPoint

    /// Creates a cropping processor; `anchor` defaults to the centre.
    public init(size: CGSize, anchor: CGPoint = CGPoint(x: 0.5, y: 0.5)) {
        self.size = size
        self.anchor = anchor
        identifier = "com.onevcat.Kingfisher.CroppingImageProcessor(\(size.identifierDescription)_\(anchor.identifierDescription))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { $0.kf.crop(to: size, anchorOn: anchor) }
    }
}
