import Foundation

/// Resizes images to a reference size in points (times `options.scaleFactor` in pixels) with a
/// content mode, by Lanczos-3 resampling. For data, prefer ``DownsamplingImageProcessor``, which
/// never decodes at full size. A result over the options' pixel limit fails (returns `nil`).
public struct ResizingImageProcessor: ImageProcessor {
    /// `com.onevcat.Kingfisher.ResizingImageProcessor(<size>)`, with `, <mode>` unless `.none`.
    public let identifier: String
    /// The reference size in points.
    public let referenceSize: CGSize
    /// How the image fits the reference size. Default `.none` (exactly the reference size).
    public let targetContentMode: ContentMode

    /// Creates a resizing processor; `mode` defaults to `.none`.
    public init(referenceSize: CGSize, mode: ContentMode = .none) {
        self.referenceSize = referenceSize
        self.targetContentMode = mode
        identifier = mode == .none
            ? "com.onevcat.Kingfisher.ResizingImageProcessor(\(referenceSize.identifierDescription))"
            : "com.onevcat.Kingfisher.ResizingImageProcessor(\(referenceSize.identifierDescription), \(mode))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first. `nil` on failure.
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        processDecodingData(item, options: options) { image in
            let target = image.kf.size.kf.resize(to: referenceSize, for: targetContentMode)
            guard options.allowsOutput(of: image.pixelSize(of: target), frames: image.frames.count) else { return nil }
            return image.kf.resize(to: target)
        }
    }
}
