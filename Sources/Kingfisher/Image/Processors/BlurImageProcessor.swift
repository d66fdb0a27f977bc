import Foundation

/// Blurs images like a Gaussian with standard deviation `blurRadius` points (times
/// `options.scaleFactor` in pixels), by three box blurs as Kingfisher does.
public struct BlurImageProcessor: ImageProcessor {
    /// `com.onevcat.Kingfisher.BlurImageProcessor(<radius>)`.
    public let identifier: String
    /// The blur radius in points.
    public let blurRadius: CGFloat

    /// Creates a blur processor.
    public init(blurRadius: CGFloat) {
        self.blurRadius = blurRadius
        identifier = "com.onevcat.Kingfisher.BlurImageProcessor(\(blurRadius))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first. `nil` on failure.
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        processDecodingData(item, options: options) { $0.kf.blurred(withRadius: blurRadius * options.scaleFactor) }
    }
}
