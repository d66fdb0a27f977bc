// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Resizes images to a reference size in points (times ``ImageProcessingContext/scaleFactor`` in pixels) with a
/// content mode, by Lanczos-3 resampling. Data is decoded straight to the output size at the
/// smallest reduced scale that covers it (JPEG DCT scaling, WebP's scaled decode; see
/// ``KingfisherImage/downsampled(data:maxPixelSize:options:)``), so shrinking a large image never
/// holds it at full size; an output larger than the source is decoded at full size and enlarged.
/// A result over the pixel limit throws ``ImageProcessingError/outputTooLarge(processor:width:height:frameCount:limit:)``.
///
/// A reference size with one side 0 leaves that side free: the other side decides and the aspect
/// ratio is kept, whatever the mode. With ``upscale`` `false`, an image is never made larger
/// than it is: it is left as it is when fitting or filling would enlarge it, and a stretched
/// side is at most the source's.
public struct ResizingImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.ResizingImageProcessor(<size>)`, with `, <mode>` unless `.none`,
    /// and `, noenlarge` when ``upscale`` is `false`.
    public let identifier: String
    /// The reference size in points; a side of 0 is free.
    public let referenceSize: CGSize
    /// How the image fits the reference size. Default `.none` (exactly the reference size).
    public let targetContentMode: ContentMode
    /// Whether an image smaller than the reference size is enlarged. Default `true`, as
    /// Kingfisher does.
    public let upscale: Bool

    /// Creates a resizing processor; `mode` defaults to `.none`, `upscale` to `true`.
    public init(referenceSize: CGSize, mode: ContentMode = .none, upscale: Bool = true) {
        self.referenceSize = referenceSize
        self.targetContentMode = mode
        self.upscale = upscale
        identifier =
            "com.onevcat.Kingfisher.ResizingImageProcessor(\(referenceSize.identifierDescription)"
            + (mode == .none ? "" : ", \(mode)") + (upscale ? "" : ", noenlarge") + ")"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded straight to the output
    /// size when that is smaller than the image.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        guard case .data(let data) = item else {
            return try processDecodingData(item, in: context) { try resize($0, in: context) }
        }
        let scale = context.scaleFactor
        let target = DecodingTarget.output { outputSize(width: $0, height: $1, scale: scale) }
        let image = try ImageDecoder.decode(data, options: context.imageCreatingOptions, target: target)
        // Not reduced: the image is the whole source, to be resized as any image is. Reduced: its
        // size is the output size worked out from the source's, which the image's own rounded
        // size might not give again.
        guard target.reduces else { return try resize(image, in: context) }
        try checkOutput((image.pixelWidth, image.pixelHeight), frames: image.heldFrameCount, in: context)
        return image
    }

    private func resize(_ image: KingfisherImage, in context: ImageProcessingContext) throws -> KingfisherImage {
        let size = outputSize(width: image.pixelWidth, height: image.pixelHeight, scale: image.scale)
        try checkOutput(size, frames: image.heldFrameCount, in: context)
        return image.resampled(toWidth: size.width, height: size.height)
    }

    /// The pixel size this processor makes of an upright `width` x `height` image at `scale`:
    /// the reference size fitted as the content mode says, in points, times the scale.
    private func outputSize(width: Int, height: Int, scale: CGFloat) -> (width: Int, height: Int) {
        let points = CGSize(width: CGFloat(width) / scale, height: CGFloat(height) / scale)
        var target = fitted(points)
        if !upscale {
            if targetContentMode == .none {
                target = CGSize(width: min(target.width, points.width), height: min(target.height, points.height))
            } else if target.width > points.width || target.height > points.height {
                return (width, height)
            }
        }
        return ((target.width * scale).pixelLength(), (target.height * scale).pixelLength())
    }

    /// The reference size fitted to an image of `points` as the mode says, a free side given by
    /// the other and the aspect ratio.
    private func fitted(_ points: CGSize) -> CGSize {
        switch (referenceSize.width, referenceSize.height) {
        case (0, let side) where side > 0:
            return CGSize(width: (points.width * side / points.height).rounded(), height: side)
        case (let side, 0) where side > 0:
            return CGSize(width: side, height: (points.height * side / points.width).rounded())
        default:
            return points.kf.resize(to: referenceSize, for: targetContentMode)
        }
    }
}
