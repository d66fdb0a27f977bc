import Foundation

/// What a format decoder hands back: upright frames of RGBA8 pixels plus what the container said.
struct DecodedImage {
    var width: Int
    var height: Int
    var frames: [ImageFrame]
    var loopCount: Int = 0
    var hasAlpha: Bool
    var orientation: ImageOrientation = .up

    /// Applies `orientation` to every frame and records it.
    mutating func applyOrientation(_ orientation: ImageOrientation) {
        self.orientation = orientation
        guard orientation != .up else { return }
        var newWidth = width, newHeight = height
        frames = frames.map { frame in
            let upright = orientation.apply(to: frame.pixels, width: width, height: height)
            newWidth = upright.width
            newHeight = upright.height
            return ImageFrame(pixels: upright.pixels, duration: frame.duration)
        }
        width = newWidth
        height = newHeight
    }

    /// Resamples every frame to `newWidth` x `newHeight` (Lanczos-3, alpha-weighted).
    mutating func resample(to newWidth: Int, _ newHeight: Int) {
        guard newWidth != width || newHeight != height else { return }
        frames = frames.map { frame in
            ImageFrame(
                pixels: Resampler.resize(frame.pixels, width: width, height: height,
                                         to: newWidth, newHeight, hasAlpha: hasAlpha),
                duration: frame.duration)
        }
        width = newWidth
        height = newHeight
    }
}

/// Kingfisher's rule for animation frame delays (GIF and WebP): a delay of 0.011 s or less is
/// shown for 0.1 s, as browsers and ImageIO do.
enum FrameDelay {
    static func duration(seconds: TimeInterval) -> TimeInterval {
        seconds <= 0.011 ? 0.1 : seconds
    }
}

/// The limits a decoder checks a file against: pixels and frames from the header, before
/// allocating anything, and the size of EXIF it reads.
struct DecodingLimits {
    let maxPixelCount: Int
    var maxFrameCount = ImageCreatingOptions.defaultMaxFrameCount
    var maxEXIFByteCount = ImageCreatingOptions.defaultMaxEXIFByteCount
    let format: ImageFormat

    init(maxPixelCount: Int, format: ImageFormat) {
        self.maxPixelCount = maxPixelCount
        self.format = format
    }

    /// The limits `options` set.
    init(_ options: ImageCreatingOptions, format: ImageFormat) {
        maxPixelCount = options.maxPixelCount
        maxFrameCount = options.maxFrameCount
        maxEXIFByteCount = options.maxEXIFByteCount
        self.format = format
    }

    /// Throws ``KingfisherError/ImageCodingErrorReason/tooManyFrames(format:frameCount:limit:)``
    /// when `frameCount` exceeds the frame limit,
    /// ``KingfisherError/ImageCodingErrorReason/tooManyPixels(format:width:height:frameCount:limit:)``
    /// when `width * height * frameCount` exceeds the pixel limit, and `corruptedData` for a zero size.
    func check(width: Int, height: Int, frameCount: Int = 1) throws {
        if frameCount > maxFrameCount {
            throw KingfisherError.imageCodingError(
                reason: .tooManyFrames(format: format, frameCount: frameCount, limit: maxFrameCount))
        }
        guard width > 0, height > 0 else {
            throw KingfisherError.imageCodingError(
                reason: .corruptedData(format: format, detail: "the header declares a size of \(width)x\(height)"))
        }
        let (area, overflow1) = width.multipliedReportingOverflow(by: height)
        let (total, overflow2) = area.multipliedReportingOverflow(by: max(frameCount, 1))
        if overflow1 || overflow2 || total > maxPixelCount {
            throw KingfisherError.imageCodingError(
                reason: .tooManyPixels(format: format, width: width, height: height,
                                       frameCount: frameCount, limit: maxPixelCount))
        }
    }
}

/// How to fit an image into a downsampling target.
enum DownsamplingTarget {
    /// The size an image of `width` x `height` gets when its longest side is reduced to
    /// `maxPixelSize` with the aspect ratio kept; never larger than the image itself.
    static func fit(width: Int, height: Int, maxPixelSize: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard maxPixelSize > 0, longest > maxPixelSize else { return (width, height) }
        let ratio = Double(maxPixelSize) / Double(longest)
        return (max(1, Int((Double(width) * ratio).rounded())), max(1, Int((Double(height) * ratio).rounded())))
    }

    /// The target for pixels stored `width` x `height` with `orientation`, in stored orientation:
    /// the upright image is what must fit `maxPixelSize`.
    static func fit(storedWidth width: Int, height: Int, orientation: ImageOrientation,
                    maxPixelSize: Int) -> (width: Int, height: Int) {
        guard orientation.swapsDimensions else { return fit(width: width, height: height, maxPixelSize: maxPixelSize) }
        let upright = fit(width: height, height: width, maxPixelSize: maxPixelSize)
        return (upright.height, upright.width)
    }
}
