// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Which way ``KingfisherWrapper/flipped(_:)`` mirrors an image.
public enum FlipDirection: String, Sendable, CaseIterable {
    /// Left to right: the left edge becomes the right edge.
    case horizontal
    /// Top to bottom: the top edge becomes the bottom edge.
    case vertical
}

/// The `image.kf` editing helpers beyond Kingfisher's own, behind the processors an image
/// service needs (rotating, flipping, extending, padding, trimming, sharpening, pixelating,
/// flattening). Sizes are in points at the image's scale; every frame of an animation is
/// processed, durations and loop count kept; results carry no original data.
extension KingfisherWrapper where Base: KingfisherImage {
    /// The part of the image of `size` points (limited to the image) that `gravity` keeps.
    /// `.attention` and `.entropy` look at the first frame of an animation; every frame is cut
    /// in the same place.
    public func crop(to size: CGSize, gravity: CropGravity) -> KFCrossPlatformImage {
        if case .anchor(let anchor) = gravity { return crop(to: size, anchorOn: anchor) }
        let target = base.pixelSize(of: size)
        let (width, height) = (base.pixelWidth, base.pixelHeight)
        let cropWidth = min(width, target.width)
        let cropHeight = min(height, target.height)
        guard cropWidth < width || cropHeight < height else { return base }
        let origin: (x: Int, y: Int)
        switch gravity {
        case .anchor:
            return base
        case .focus(let point):
            func start(_ fraction: CGFloat, _ length: Int, _ crop: Int) -> Int {
                let centre = fraction.isFinite ? min(max(fraction, 0), 1) * CGFloat(length) : CGFloat(length) / 2
                return min(max(Int((centre - CGFloat(crop) / 2).rounded()), 0), length - crop)
            }
            origin = (start(point.x, width, cropWidth), start(point.y, height, cropHeight))
        case .attention:
            let centre = AttentionCentre.locate(in: base.pixels, width: width, height: height, cropWidth: cropWidth, cropHeight: cropHeight)
            origin = (min(max(centre.x - cropWidth / 2, 0), width - cropWidth), min(max(centre.y - cropHeight / 2, 0), height - cropHeight))
        case .entropy:
            origin = EntropyCrop.origin(in: base.pixels, width: width, height: height, cropWidth: cropWidth, cropHeight: cropHeight)
        }
        return cropped(x: origin.x, y: origin.y, width: cropWidth, height: cropHeight)
    }

    /// The image turned clockwise by `degrees`, a multiple of 90 (any other angle leaves it as
    /// it is): pixels move exactly, nothing is resampled.
    public func rotated(byDegrees degrees: Int) -> KFCrossPlatformImage {
        guard degrees % 90 == 0, degrees % 360 != 0 else { return base }
        return moved(PixelTransposition.rotation(width: base.pixelWidth, height: base.pixelHeight, clockwiseQuarterTurns: degrees / 90))
    }

    /// The image mirrored: left to right for `.horizontal`, top to bottom for `.vertical`.
    public func flipped(_ direction: FlipDirection) -> KFCrossPlatformImage {
        moved(PixelTransposition.mirror(width: base.pixelWidth, height: base.pixelHeight, horizontally: direction == .horizontal))
    }

    private func moved(_ move: PixelTransposition.Move) -> KFCrossPlatformImage {
        base.mappingFrames(width: move.width, height: move.height) { PixelTransposition.apply(move, to: $0) }
    }

    /// The image centred on a canvas of at least `size` points (each side the larger of the
    /// image's and `size`'s), the rest `backgroundColor` (default `nil`: transparent). An image
    /// already as large is returned as it is. When the margin is odd, the extra pixel goes
    /// right and below.
    public func extended(to size: CGSize, backgroundColor: KFCrossPlatformColor? = nil) -> KFCrossPlatformImage {
        let target = base.pixelSize(of: size)
        let width = max(base.pixelWidth, target.width)
        let height = max(base.pixelHeight, target.height)
        return placed(
            onCanvasOf: width, height, x: (width - base.pixelWidth) / 2, y: (height - base.pixelHeight) / 2,
            backgroundColor: backgroundColor)
    }

    /// The image with margins of `top`, `right`, `bottom` and `left` points (negative ones count
    /// as 0) of `backgroundColor` (default `nil`: transparent) around it.
    public func padded(
        top: CGFloat, right: CGFloat, bottom: CGFloat, left: CGFloat, backgroundColor: KFCrossPlatformColor? = nil
    ) -> KFCrossPlatformImage {
        func pixels(_ points: CGFloat) -> Int {
            let length = (max(0, points) * base.scale).rounded()
            return length.isFinite ? Int(min(length, CGFloat(Int32.max))) : 0
        }
        let (t, r, b, l) = (pixels(top), pixels(right), pixels(bottom), pixels(left))
        return placed(
            onCanvasOf: base.pixelWidth + l + r, base.pixelHeight + t + b, x: l, y: t, backgroundColor: backgroundColor)
    }

    private func placed(
        onCanvasOf width: Int, _ height: Int, x: Int, y: Int, backgroundColor: KFCrossPlatformColor?
    ) -> KFCrossPlatformImage {
        guard width != base.pixelWidth || height != base.pixelHeight else { return base }
        let opaque = !base.hasAlpha && (backgroundColor?.alpha ?? 0) >= 1
        let (imageWidth, imageHeight) = (base.pixelWidth, base.pixelHeight)
        return base.mappingFrames(width: width, height: height, hasAlpha: !opaque) {
            PixelCanvas.placing(
                $0, width: imageWidth, height: imageHeight, canvasWidth: width, canvasHeight: height, x: x, y: y,
                fill: backgroundColor)
        }
    }

    /// The image without its uniform border: the smallest rectangle holding every pixel that
    /// differs from `color` (default `nil`: the top-left pixel's colour) by more than `threshold`
    /// (0…255, default 10) in some channel. An image that is all border, or has none, is
    /// returned as it is. An animation is trimmed to the rectangle of its first frame.
    public func trimmed(threshold: Int = 10, color: KFCrossPlatformColor? = nil) -> KFCrossPlatformImage {
        let pixels = base.pixels
        let background = color?.rgba8 ?? (pixels[0], pixels[1], pixels[2], pixels[3])
        guard
            let rect = TrimBounds.content(
                of: pixels, width: base.pixelWidth, height: base.pixelHeight, background: background,
                threshold: min(max(threshold, 0), 255))
        else { return base }
        return cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    /// The image sharpened by an unsharp mask: each pixel pushed away from its Gaussian
    /// neighbourhood of standard deviation `sigma` points by `amount` (default 1: the
    /// difference added once). A `sigma` or `amount` that is not finite and positive leaves the
    /// image as it is.
    public func sharpened(sigma: CGFloat, amount: CGFloat = 1) -> KFCrossPlatformImage {
        let pixelSigma = Float(sigma * base.scale)
        guard pixelSigma.isFinite, pixelSigma > 0, amount.isFinite, amount > 0 else { return base }
        let (width, height) = (base.pixelWidth, base.pixelHeight)
        return base.mappingFrames(width: width, height: height) {
            UnsharpMask.sharpen($0, width: width, height: height, sigma: pixelSigma, amount: Float(amount))
        }
    }

    /// The image in square blocks of `blockSize` points, each the average of its pixels
    /// (weighted by alpha), counted from the top-left corner. A block of a pixel or less, or
    /// not finite, leaves the image as it is.
    public func pixelated(blockSize: CGFloat) -> KFCrossPlatformImage {
        let block = (blockSize * base.scale).rounded()
        guard block.isFinite, block > 1 else { return base }
        let (width, height) = (base.pixelWidth, base.pixelHeight)
        let pixels = Int(min(block, CGFloat(Int32.max)))
        return base.mappingFrames(width: width, height: height) { Pixelation.pixelate($0, width: width, height: height, block: pixels) }
    }

    /// The image drawn over `color`: transparency flattened (opaque when `color` is). An image
    /// without alpha is returned as it is.
    public func flattened(onto color: KFCrossPlatformColor) -> KFCrossPlatformImage {
        guard base.hasAlpha else { return base }
        let count = base.pixelWidth * base.pixelHeight
        return base.mappingFrames(width: base.pixelWidth, height: base.pixelHeight, hasAlpha: color.alpha < 1) {
            Compositing.draw(.pixels($0), over: .color(color), mode: .normal, count: count)
        }
    }
}
