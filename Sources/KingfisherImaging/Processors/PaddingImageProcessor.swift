// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Adds margins of a colour around images (see
/// ``KingfisherWrapper/padded(top:right:bottom:left:backgroundColor:)``). An output over the
/// pixel limit throws ``ImageProcessingError/outputTooLarge(processor:width:height:frameCount:limit:)``;
/// a negative or non-finite margin is refused.
public struct PaddingImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.PaddingImageProcessor(<top>,<right>,<bottom>,<left>)`, with
    /// `_<rgba>` for a colour.
    public let identifier: String
    /// The margins in points.
    public let top: CGFloat, right: CGFloat, bottom: CGFloat, left: CGFloat
    /// The margins' colour. Default `nil`: transparent.
    public let backgroundColor: KFCrossPlatformColor?

    /// Creates a processor adding margins of `top`, `right`, `bottom` and `left` points of
    /// `backgroundColor` (default `nil`: transparent).
    public init(top: CGFloat, right: CGFloat, bottom: CGFloat, left: CGFloat, backgroundColor: KFCrossPlatformColor? = nil) {
        (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
        self.backgroundColor = backgroundColor
        identifier =
            "com.onevcat.Kingfisher.PaddingImageProcessor(\(top),\(right),\(bottom),\(left))"
            + (backgroundColor.map { "_\($0.rgbaDescription)" } ?? "")
    }

    /// Creates a processor adding a margin of `padding` points on every side of
    /// `backgroundColor` (default `nil`: transparent).
    public init(padding: CGFloat, backgroundColor: KFCrossPlatformColor? = nil) {
        self.init(top: padding, right: padding, bottom: padding, left: padding, backgroundColor: backgroundColor)
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        let margins = [top, right, bottom, left]
        guard margins.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= ImageProcessorSpec.maxSize }) else {
            throw ImageProcessingError.invalidParameter(
                processor: identifier, detail: "margins must be 0...\(Int(ImageProcessorSpec.maxSize)) points")
        }
        return try processDecodingData(item, in: context) { image in
            let pixels = margins.map { Int(($0 * image.scale).rounded()) }
            try checkOutput(
                (image.pixelWidth + pixels[1] + pixels[3], image.pixelHeight + pixels[0] + pixels[2]), frames: image.heldFrameCount,
                in: context)
            return image.kf.padded(top: top, right: right, bottom: bottom, left: left, backgroundColor: backgroundColor)
        }
    }
}
