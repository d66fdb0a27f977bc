// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Crops images to `size` points placed at `anchor` ((0, 0) top-left, (0.5, 0.5) centre,
/// (1, 1) bottom-right; clamped to 0…1), limited to the image; or where a ``CropGravity`` says
/// (a focal point, the most salient or most detailed part).
public struct CroppingImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.CroppingImageProcessor(<size>_<anchor>)`; for a gravity other
    /// than an anchor, `_focus(<x>, <y>)`, `_attention` or `_entropy` in place of the anchor.
    public let identifier: String
    /// The size of the crop in points.
    public let size: CGSize
    /// Where the crop sits: the gravity's anchor, else (0.5, 0.5). Default (0.5, 0.5), the centre.
    public let anchor: CGPoint
    /// Which part of the image the crop keeps. Default ``CropGravity/center``.
    public let gravity: CropGravity

    /// Creates a cropping processor; `anchor` defaults to the centre.
    public init(size: CGSize, anchor: CGPoint = CGPoint(x: 0.5, y: 0.5)) {
        self.init(size: size, gravity: .anchor(anchor))
    }

    /// Creates a cropping processor keeping the part `gravity` says.
    public init(size: CGSize, gravity: CropGravity) {
        self.size = size
        self.gravity = gravity
        if case .anchor(let anchor) = gravity { self.anchor = anchor } else { anchor = CGPoint(x: 0.5, y: 0.5) }
        identifier = "com.onevcat.Kingfisher.CroppingImageProcessor(\(size.identifierDescription)_\(gravity.identifierDescription))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { $0.kf.crop(to: size, gravity: gravity) }
    }
}
