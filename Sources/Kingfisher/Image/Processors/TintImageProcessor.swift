import Foundation

/// Composites a colour over images (use a translucent colour to tint).
public struct TintImageProcessor: ImageProcessor {
    /// `com.onevcat.Kingfisher.TintImageProcessor(<rgba>)`.
    public let identifier: String
    /// The tint colour.
    public let tint: KFCrossPlatformColor

    /// Creates a tint processor.
    public init(tint: KFCrossPlatformColor) {
        self.tint = tint
        identifier = "com.onevcat.Kingfisher.TintImageProcessor(\(tint.rgbaDescription))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first. `nil` on failure.
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        processDecodingData(item, options: options) { $0.kf.tinted(with: tint) }
    }
}
