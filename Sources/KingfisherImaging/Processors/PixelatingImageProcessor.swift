// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Shows images in square blocks of one colour (see ``KingfisherWrapper/pixelated(blockSize:)``).
/// A block size that is not finite and positive is refused
/// (``ImageProcessingError/invalidParameter(processor:detail:)``).
public struct PixelatingImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.PixelatingImageProcessor(<block size>)`.
    public let identifier: String
    /// The side of a block, in points.
    public let blockSize: CGFloat

    /// Creates a processor pixelating images in blocks of `blockSize` points.
    public init(blockSize: CGFloat) {
        self.blockSize = blockSize
        identifier = "com.onevcat.Kingfisher.PixelatingImageProcessor(\(blockSize))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        guard blockSize.isFinite, blockSize > 0 else {
            throw ImageProcessingError.invalidParameter(processor: identifier, detail: "a block of \(blockSize) points is not positive")
        }
        return try processDecodingData(item, in: context) { $0.kf.pixelated(blockSize: blockSize) }
    }
}
