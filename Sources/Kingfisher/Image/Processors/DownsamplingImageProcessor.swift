import Foundation

/// Decodes data straight to a thumbnail whose longest side is `max(size.width, size.height)`
/// points at `options.scaleFactor` (see ``KingfisherImage/downsampled(data:maxPixelSize:options:)``);
/// an image item is resampled to the same size. Never enlarges.
public struct DownsamplingImageProcessor: ImageProcessor {
    /// The target size in points.
    public let size: CGSize
    /// `com.onevcat.Kingfisher.DownsamplingImageProcessor(<size>)`.
    public let identifier: String

    /// Creates a downsampling processor for `size` points.
    public init(size: CGSize) {
        self.size = size
        identifier = "com.onevcat.Kingfisher.DownsamplingImageProcessor(\(size.identifierDescription))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first. `nil` on failure.
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        let longest = max(size.width, size.height) * options.scaleFactor
        guard longest.isFinite, longest >= 1 else { return nil }
        let maxPixelSize = longest.pixelCount(.up)
        switch item {
        case .image(let image):
            return image.resized(toFit: maxPixelSize).kf.scaled(to: options.scaleFactor)
        case .data(let data):
            var creating = options.imageCreatingOptions
            creating.scale = options.scaleFactor
            return try? KingfisherImage.downsampled(data: data, maxPixelSize: maxPixelSize, options: creating)
        }
    }
}
