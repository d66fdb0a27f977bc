import Foundation

/// Blurs images like a Gaussian with standard deviation `blurRadius` points (times
/// `options.scaleFactor` in pixels), by three box blurs as Kingfisher does. A radius over
/// ``maxBlurRadius`` pixels, or not finite, is refused (`nil`) rather than attempted.
public struct BlurImageProcessor: ImageProcessor {
    /// The largest radius blurred, in pixels: 1 000 (a radius this large already averages a
    /// 6 000-pixel neighbourhood).
    public static let maxBlurRadius: CGFloat = 1_000

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
        let radius = blurRadius * options.scaleFactor
        guard radius.isFinite, radius <= Self.maxBlurRadius else { return nil }
        return processDecodingData(item, options: options) { $0.kf.blurred(withRadius: radius) }
    }
}
