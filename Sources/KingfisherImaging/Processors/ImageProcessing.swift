// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a processor works on: an image, or data still to be decoded.
public enum ImageProcessItem: Sendable {
    /// An image to process.
    case image(KFCrossPlatformImage)
    /// Data to decode (and process).
    case data(Data)
}

/// Turns an ``ImageProcessItem`` into an image, or throws why it cannot.
///
/// The built-in processors implement this; `Kingfisher` adapts them to its `ImageProcessor`
/// protocol (`process(item:options:)`, which returns `nil` on failure), and uses this throwing
/// form itself, so a decoding error reaches the caller as it happened. The ``identifier`` is part
/// of the cache key of processed images: processors doing the same work have the same identifier.
public protocol ImageProcessing: Sendable {
    /// Identifies what the processor does; part of the cache key. `""` is
    /// ``DefaultImageProcessor``'s.
    var identifier: String { get }

    /// Processes `item` with the scale and limits of `context`.
    ///
    /// - Throws: ``ImageCodingError`` when a `.data` item does not decode,
    ///   ``ImageProcessingError`` when the processor refuses its parameters or its output size.
    func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage
}

extension ImageProcessing {
    /// Decodes a `.data` item with ``DefaultImageProcessor``, or rescales an `.image` item to
    /// the context's scale, then runs `body` on the image: what processors that work on images
    /// do with any item.
    package func processDecodingData(
        _ item: ImageProcessItem, in context: ImageProcessingContext,
        _ body: (KingfisherImage) throws -> KingfisherImage
    ) throws -> KingfisherImage {
        try body(DefaultImageProcessor.default.process(item, in: context))
    }

    /// Throws ``ImageProcessingError/outputTooLarge(processor:width:height:frameCount:limit:)``
    /// when an output of `size` pixels and `frames` frames held at once is over the context's
    /// output pixel limit, and ``PixelMemoryBudget/Refusal`` when it does not fit the pixel
    /// memory budget.
    package func checkOutput(_ size: (width: Int, height: Int), frames: Int, in context: ImageProcessingContext) throws {
        let options = context.imageCreatingOptions
        let limit = options.maxOutputPixelCount ?? options.maxPixelCount
        guard let total = PixelArea.total(width: size.width, height: size.height, frames: frames), total <= limit else {
            throw ImageProcessingError.outputTooLarge(
                processor: identifier, width: size.width, height: size.height,
                frameCount: frames, limit: limit)
        }
        try options.pixelMemory?.charge(total * PixelBuffer.bytesPerPixel)
    }
}
