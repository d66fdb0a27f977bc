// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

extension KingfisherImage {
    /// Returns the image resampled (Lanczos-3, alpha-weighted) so that its longest side is at
    /// most `maxPixelSize` pixels, aspect ratio kept; the image itself when it already fits.
    /// Every frame of an animation is resampled.
    public func resized(toFit maxPixelSize: Int) -> KingfisherImage {
        let target = DownsamplingTarget.fit(width: pixelWidth, height: pixelHeight, maxPixelSize: maxPixelSize)
        return resampled(toWidth: target.width, height: target.height)
    }

    /// Every frame resampled (Lanczos-3, alpha-weighted) to `width` x `height` pixels; the image
    /// itself when it already has that size.
    func resampled(toWidth width: Int, height: Int) -> KingfisherImage {
        guard width != pixelWidth || height != pixelHeight else { return self }
        let (sourceWidth, sourceHeight, hasAlpha) = (pixelWidth, pixelHeight, hasAlpha)
        return mappingFrames(width: width, height: height) {
            Resampler.resize($0, width: sourceWidth, height: sourceHeight, to: width, height, hasAlpha: hasAlpha)
        }
    }
}
