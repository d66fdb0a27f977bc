// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Lays a ``Watermark`` over images (every frame of an animation): once at a side, corner or the
/// centre, or tiled; with an opacity; at its own size in points or scaled to a fraction of the
/// image's width. A watermark larger than the image is cut at its edges. An opacity outside 0…1
/// or a scale outside 0 (excluded)…1, or not finite, is refused
/// (``ImageProcessingError/invalidParameter(processor:detail:)``).
public struct WatermarkImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.WatermarkImageProcessor(<name>@<size>#<digest>,<position>,<opacity>[,<scale>])`.
    public let identifier: String
    /// The watermark.
    public let watermark: Watermark
    /// Where it goes. Default the centre.
    public let position: WatermarkPosition
    /// Its opacity, 0…1. Default 1.
    public let opacity: CGFloat
    /// Its width as a fraction of the image's; `nil` (the default): its own size in points.
    public let scale: CGFloat?

    /// Creates a processor laying `watermark` at `position` (default the centre), with `opacity`
    /// (default 1) and `scale` (default `nil`: its own size).
    public init(
        watermark: Watermark, position: WatermarkPosition = .anchor(CGPoint(x: 0.5, y: 0.5)), opacity: CGFloat = 1,
        scale: CGFloat? = nil
    ) {
        self.watermark = watermark
        self.position = position
        self.opacity = opacity
        self.scale = scale
        let place =
            switch position {
            case .anchor(let anchor): anchor.identifierDescription
            case .tile: "tile"
            }
        identifier =
            "com.onevcat.Kingfisher.WatermarkImageProcessor(\(watermark.identity),\(place),\(opacity)"
            + (scale.map { ",\($0)" } ?? "") + ")"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        var anchored = true
        if case .anchor(let anchor) = position { anchored = anchor.x.isFinite && anchor.y.isFinite }
        guard anchored, opacity.isFinite, (0...1).contains(opacity), scale.map({ $0.isFinite && $0 > 0 && $0 <= 1 }) ?? true else {
            throw ImageProcessingError.invalidParameter(
                processor: identifier, detail: "the position must be finite, the opacity 0...1 and the scale over 0 and at most 1")
        }
        return try processDecodingData(item, in: context) { image in
            let mark = watermark.image
            let width: Int
            let height: Int
            if let scale {
                width = max(1, Int((CGFloat(image.pixelWidth) * scale).rounded()))
                height = max(1, Int((CGFloat(width) * CGFloat(mark.pixelHeight) / CGFloat(mark.pixelWidth)).rounded()))
            } else {
                (width, height) = image.pixelSize(of: mark.size)
            }
            // A watermark is at most as large as the image it marks (the rest would be cut).
            try checkOutput((min(width, image.pixelWidth), min(height, image.pixelHeight)), frames: 1, in: context)
            let stamp = mark.resampled(toWidth: width, height: height).pixels
            let placement: Stamping.Placement
            switch position {
            case .anchor(let anchor):
                func start(_ fraction: CGFloat, _ length: Int, _ size: Int) -> Int {
                    Int((min(max(fraction, 0), 1) * CGFloat(length - size)).rounded())
                }
                placement = .once(x: start(anchor.x, image.pixelWidth, width), y: start(anchor.y, image.pixelHeight, height))
            case .tile:
                placement = .tiled
            }
            let (imageWidth, imageHeight, alpha) = (image.pixelWidth, image.pixelHeight, Float(opacity))
            return image.mappingFrames(width: imageWidth, height: imageHeight) {
                Stamping.draw(
                    stamp, stampWidth: width, stampHeight: height, opacity: alpha, placement: placement, over: $0, width: imageWidth,
                    height: imageHeight)
            }
        }
    }
}
