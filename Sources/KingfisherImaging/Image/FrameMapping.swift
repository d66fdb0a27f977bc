import Foundation

extension KingfisherImage {
    /// The pixel size of `points` at this image's scale, each side within 1...Int32.max.
    func pixelSize(of points: CGSize) -> (width: Int, height: Int) {
        ((points.width * scale).pixelLength(), (points.height * scale).pixelLength())
    }

    /// A processed image: every frame transformed by `transform` into `width` x `height` pixels,
    /// durations, loop count, scale and format kept, no original data.
    func mappingFrames(
        width: Int, height: Int, hasAlpha: Bool? = nil,
        _ transform: ([UInt8]) -> [UInt8]
    ) -> KingfisherImage {
        let mapped = frames.map { ImageFrame(pixels: transform($0.pixels), duration: $0.duration) }
        return KingfisherImage(width: width, height: height, frames: mapped, scale: scale, loopCount: loopCount,
                               format: format, originalData: nil, hasAlpha: hasAlpha ?? self.hasAlpha,
                               exifOrientation: exifOrientation, colorProfile: colorProfile)
    }
}
