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
