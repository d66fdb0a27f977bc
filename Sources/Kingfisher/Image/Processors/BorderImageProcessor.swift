import Foundation

/// Strokes a ``Border`` inside the edges of images.
public struct BorderImageProcessor: ImageProcessor {
    /// `com.onevcat.Kingfisher.BorderImageProcessor(<border>`, as Kingfisher writes it
    /// (without a closing parenthesis).
    public var identifier: String { "com.onevcat.Kingfisher.BorderImageProcessor(\(border.identifier)" }
    /// The border to draw.
    public let border: Border

    /// Creates a border processor.
    public init(border: Border) {
        self.border = border
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first. `nil` on failure.
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        processDecodingData(item, options: options) { $0.kf.addingBorder(border) }
    }
}
