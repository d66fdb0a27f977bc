// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Turns images clockwise by a multiple of 90 degrees, moving pixels exactly (nothing is
/// resampled). An angle that is not a multiple of 90 is refused
/// (``ImageProcessingError/invalidParameter(processor:detail:)``).
public struct RotatingImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.RotatingImageProcessor(<degrees>)`.
    public let identifier: String
    /// The clockwise angle in degrees: 90, 180 or 270 (or another multiple of 90, taken modulo 360).
    public let degrees: Int

    /// Creates a processor turning images clockwise by `degrees`.
    public init(degrees: Int) {
        self.degrees = degrees
        identifier = "com.onevcat.Kingfisher.RotatingImageProcessor(\(degrees))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        guard degrees % 90 == 0 else {
            throw ImageProcessingError.invalidParameter(processor: identifier, detail: "\(degrees) degrees is not a multiple of 90")
        }
        return try processDecodingData(item, in: context) { $0.kf.rotated(byDegrees: degrees) }
    }
}
