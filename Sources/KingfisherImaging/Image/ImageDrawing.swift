// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Kingfisher's `image.kf` drawing helpers. Sizes are in points at the image's scale; every
/// frame of an animation is processed, durations and loop count kept; results carry no
/// original data.
extension KingfisherWrapper where Base: KingfisherImage {
    /// The image's size in points.
    public var size: CGSize { base.size }
    /// The image's scale.
    public var scale: CGFloat { base.scale }

    // MARK: Scale

    /// The same pixels at `scale` (points = pixels / scale); `base` itself when already there.
    public func scaled(to scale: CGFloat) -> KFCrossPlatformImage {
        scale == base.scale || scale <= 0 ? base : base.withScale(scale)
    }

    /// The image with its orientation applied. Pixels are always upright here, so `base`.
    public var normalized: KFCrossPlatformImage { base }

    // MARK: Resizing

    /// The image resampled (Lanczos-3, alpha-weighted) to exactly `size` points.
    public func resize(to size: CGSize) -> KFCrossPlatformImage {
        let target = base.pixelSize(of: size)
        return base.resampled(toWidth: target.width, height: target.height)
    }

    /// The image resized to `targetSize` points as `contentMode` says (see `CGSize.kf.resize(to:for:)`).
    public func resize(to targetSize: CGSize, for contentMode: ContentMode) -> KFCrossPlatformImage {
        resize(to: size.kf.resize(to: targetSize, for: contentMode))
    }

    // MARK: Cropping

    /// The part of the image of `size` points placed at `anchor` (clamped to 0…1; (0.5, 0.5) is
    /// the centre), limited to the image. A size or anchor that is not finite leaves the image
    /// as it is.
    public func crop(to size: CGSize, anchorOn anchor: CGPoint) -> KFCrossPlatformImage {
        guard size.width.isFinite, size.height.isFinite, anchor.x.isFinite, anchor.y.isFinite else { return base }
        let rect = self.size.kf.constrainedRect(for: size, anchor: anchor)
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else {
            return base
        }
        let x = max(0, Int((rect.minX * base.scale).rounded()))
        let y = max(0, Int((rect.minY * base.scale).rounded()))
        let width = min(base.pixelWidth - x, Int((rect.width * base.scale).rounded()))
        let height = min(base.pixelHeight - y, Int((rect.height * base.scale).rounded()))
        return cropped(x: x, y: y, width: width, height: height)
    }

    /// The `width` x `height` pixels from (`x`, `y`), which must lie in the image; the image
    /// itself for the whole of it or nothing.
    func cropped(x: Int, y: Int, width: Int, height: Int) -> KFCrossPlatformImage {
        guard width > 0, height > 0 else { return base }
        if width == base.pixelWidth && height == base.pixelHeight { return base }
        let sourceRowBytes = base.pixelWidth * 4
        let rowBytes = width * 4
        return base.mappingFrames(width: width, height: height) { pixels in
            PixelBuffer.make(count: rowBytes * height) { out in
                pixels.withUnsafeBufferPointer { source in
                    for row in 0..<height {
                        (out + row * rowBytes).update(
                            from: source.baseAddress! + (y + row) * sourceRowBytes + x * 4,
                            count: rowBytes)
                    }
                }
            }
        }
    }

    // MARK: Blur

    /// The image blurred like a Gaussian of standard deviation `radius` pixels (at least 2), by
    /// three box blurs of width d = ⌊radius · 3√(2π) / 4 + 0.5⌋ (made odd), as Kingfisher does;
    /// one pass for radii under 0.5, two under 1.5. Radii over
    /// ``BlurImageProcessor/maxBlurRadius`` blur as that radius; a radius that is not finite or
    /// not positive leaves the image as it is.
    public func blurred(withRadius radius: CGFloat) -> KFCrossPlatformImage {
        guard radius.isFinite, radius > 0 else { return base }
        let s = Double(min(max(radius, 2), BlurImageProcessor.maxBlurRadius))
        let width = Int((s * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        let boxSize = width % 2 == 0 ? width + 1 : width
        let passes = radius < 0.5 ? 1 : (radius < 1.5 ? 2 : 3)
        return base.mappingFrames(width: base.pixelWidth, height: base.pixelHeight) {
            BoxBlur.blur(
                $0, width: base.pixelWidth, height: base.pixelHeight, boxSize: boxSize,
                passes: passes, hasAlpha: base.hasAlpha)
        }
    }

    // MARK: Round corner

    /// The image drawn into `size` points with `corners` rounded by `radius` (anti-aliased) and
    /// `backgroundColor` (default none: transparent) behind it.
    public func image(
        withRadius radius: Radius, fit size: CGSize, roundingCorners corners: RectCorner = .all,
        backgroundColor: KFCrossPlatformColor? = nil
    ) -> KFCrossPlatformImage {
        let resized = resize(to: size)
        let width = resized.pixelWidth
        let height = resized.pixelHeight
        let radiusPixels = Float(radius.compute(with: size) * resized.scale)
        let shape = RoundedRectCoverage(width: width, height: height, radius: radiusPixels, corners: corners)
        let opaqueBackground = backgroundColor.map { $0.alpha >= 1 } ?? false
        return resized.mappingFrames(width: width, height: height, hasAlpha: !opaqueBackground) { pixels in
            let drawn =
                backgroundColor.map {
                    Compositing.draw(.pixels(pixels), over: .color($0), mode: .normal, count: width * height)
                } ?? pixels
            return Masking.apply(shape, to: drawn, width: width, height: height, background: backgroundColor)
        }
    }

    /// Same as ``image(withRadius:fit:roundingCorners:backgroundColor:)`` with `.point(radius)`.
    public func image(
        withRoundRadius radius: CGFloat, fit size: CGSize, roundingCorners corners: RectCorner = .all,
        backgroundColor: KFCrossPlatformColor? = nil
    ) -> KFCrossPlatformImage {
        image(withRadius: .point(radius), fit: size, roundingCorners: corners, backgroundColor: backgroundColor)
    }

    // MARK: Border

    /// The image with `border` stroked inside its edges.
    public func addingBorder(_ border: Border) -> KFCrossPlatformImage {
        let width = base.pixelWidth
        let height = base.pixelHeight
        let lineWidth = Float(border.lineWidth * base.scale)
        guard lineWidth > 0 else { return base }
        let outerRadius = Float(border.radius.compute(with: size) * base.scale)
        let outer = RoundedRectCoverage(width: width, height: height, radius: outerRadius, corners: border.roundingCorners)
        let inner = RoundedRectCoverage(
            width: width, height: height, inset: lineWidth,
            radius: outerRadius - lineWidth, corners: border.roundingCorners)
        return base.mappingFrames(width: width, height: height) { pixels in
            Masking.stroke(outer: outer, inner: inner, color: border.color, over: pixels, width: width, height: height)
        }
    }

    // MARK: Colour

    /// The image's shape filled with `color`, with the image showing through by `fraction`
    /// (0 = solid colour, 1 = the image unchanged), as Kingfisher does on iOS.
    public func overlaying(with color: KFCrossPlatformColor, fraction: CGFloat) -> KFCrossPlatformImage {
        let count = base.pixelWidth * base.pixelHeight
        let f = Float(min(max(fraction, 0), 1))
        return base.mappingFrames(width: base.pixelWidth, height: base.pixelHeight) { pixels in
            let shape = Compositing.draw(.pixels(pixels), over: .color(color), mode: .destinationIn, count: count)
            guard f > 0 else { return shape }
            return Compositing.draw(.pixels(pixels), over: .pixels(shape), mode: .sourceAtop, alpha: f, count: count)
        }
    }

    /// `color` composited over the image (Core Image's constant colour, source-over).
    public func tinted(with color: KFCrossPlatformColor) -> KFCrossPlatformImage {
        let count = base.pixelWidth * base.pixelHeight
        return base.mappingFrames(width: base.pixelWidth, height: base.pixelHeight) {
            Compositing.draw(.color(color), over: .pixels($0), mode: .normal, count: count)
        }
    }

    /// Core Image's colour controls then exposure: `brightness` added (0 = none), `contrast`
    /// around mid-gray (1 = none), `saturation` (1 = none, 0 = gray), `inputEV` stops of
    /// exposure (0 = none), computed in linear light as Core Image does.
    public func adjusted(brightness: CGFloat, contrast: CGFloat, saturation: CGFloat, inputEV: CGFloat) -> KFCrossPlatformImage {
        let adjustment = ColorAdjustment(
            brightness: Float(brightness), contrast: Float(contrast),
            saturation: Float(saturation), exposure: Float(inputEV))
        return base.mappingFrames(width: base.pixelWidth, height: base.pixelHeight) { adjustment.apply($0) }
    }

    /// The image drawn with `blendMode` and opacity `alpha` (default 1) over `backgroundColor`
    /// (default none: a transparent backdrop).
    public func image(
        withBlendMode blendMode: CGBlendMode, alpha: CGFloat = 1.0,
        backgroundColor: KFCrossPlatformColor? = nil
    ) -> KFCrossPlatformImage {
        let count = base.pixelWidth * base.pixelHeight
        let opacity = Float(min(max(alpha, 0), 1))
        return base.mappingFrames(width: base.pixelWidth, height: base.pixelHeight, hasAlpha: true) {
            Compositing.draw(
                .pixels($0), over: .color(backgroundColor ?? .clear), mode: blendMode,
                alpha: opacity, count: count)
        }
    }
}
