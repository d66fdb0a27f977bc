import Foundation

/// Resizes images to a reference size in points (times ``ImageProcessingContext/scaleFactor`` in pixels) with a
/// content mode, by Lanczos-3 resampling. For data, prefer ``DownsamplingImageProcessor``, which
/// never decodes at full size. A result over the pixel limit throws ``ImageProcessingError/outputTooLarge(processor:width:height:frameCount:limit:)``.
public struct ResizingImageProcessor: ImageProcessing {
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

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { image in
            let target = image.kf.size.kf.resize(to: referenceSize, for: targetContentMode)
            try checkOutput(image.pixelSize(of: target), frames: image.heldFrameCount, in: context)
            return image.kf.resize(to: target)
        }
    }
}
