extension KingfisherImage {
    /// Returns the image resampled (Lanczos-3, alpha-weighted) so that its longest side is at
    /// most `maxPixelSize` pixels, aspect ratio kept; the image itself when it already fits.
    /// Every frame of an animation is resampled.
    public func resized(toFit maxPixelSize: Int) -> KingfisherImage {
        let target = DownsamplingTarget.fit(width: pixelWidth, height: pixelHeight, maxPixelSize: maxPixelSize)
        guard target != (pixelWidth, pixelHeight) else { return self }
        var decoded = DecodedImage(width: pixelWidth, height: pixelHeight, frames: frames,
                                   loopCount: loopCount, hasAlpha: hasAlpha)
        decoded.resample(to: target.width, target.height)
        return KingfisherImage(width: decoded.width, height: decoded.height, frames: decoded.frames, scale: scale,
                               loopCount: loopCount, format: format, originalData: nil,
                               hasAlpha: hasAlpha, exifOrientation: exifOrientation)
    }
}
