// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Decodes data straight to a thumbnail whose longest side is `max(size.width, size.height)`
/// points at ``ImageProcessingContext/scaleFactor`` (see ``KingfisherImage/downsampled(data:maxPixelSize:options:)``);
/// an image item is resampled to the same size. Never enlarges.
public struct DownsamplingImageProcessor: ImageProcessing {
    /// The target size in points.
    public let size: CGSize
    /// `com.onevcat.Kingfisher.DownsamplingImageProcessor(<size>)`.
    public let identifier: String

    /// Creates a downsampling processor for `size` points.
    public init(size: CGSize) {
        self.size = size
        identifier = "com.onevcat.Kingfisher.DownsamplingImageProcessor(\(size.identifierDescription))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        let longest = max(size.width, size.height) * context.scaleFactor
        guard longest.isFinite, longest >= 1 else {
            throw ImageProcessingError.invalidParameter(
                processor: identifier, detail: "a longest side of \(longest) pixels is not a usable size")
        }
        let maxPixelSize = longest.pixelLength(.up)
        switch item {
        case .image(let image):
            return image.resized(toFit: maxPixelSize).kf.scaled(to: context.scaleFactor)
        case .data(let data):
            return try KingfisherImage.downsampled(data: data, maxPixelSize: maxPixelSize, options: context.imageCreatingOptions)
        }
    }
}
