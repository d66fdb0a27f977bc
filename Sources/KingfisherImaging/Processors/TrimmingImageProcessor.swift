// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Removes a uniform border from images (see ``KingfisherWrapper/trimmed(threshold:color:)``).
public struct TrimmingImageProcessor: ImageProcessing {
    /// The default threshold: 10.
    public static let defaultThreshold = 10

    /// `com.onevcat.Kingfisher.TrimmingImageProcessor(<threshold>)`, with `_<rgba>` for a colour.
    public let identifier: String
    /// How far (0…255, in every channel) a pixel may be from the border colour and still be border.
    /// Default ``defaultThreshold``.
    public let threshold: Int
    /// The border colour. Default `nil`: the top-left pixel's.
    public let color: KFCrossPlatformColor?

    /// Creates a processor trimming borders of `color` (default `nil`: the top-left pixel's)
    /// within `threshold` (default 10).
    public init(threshold: Int = TrimmingImageProcessor.defaultThreshold, color: KFCrossPlatformColor? = nil) {
        self.threshold = threshold
        self.color = color
        identifier = "com.onevcat.Kingfisher.TrimmingImageProcessor(\(threshold))" + (color.map { "_\($0.rgbaDescription)" } ?? "")
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        guard (0...255).contains(threshold) else {
            throw ImageProcessingError.invalidParameter(processor: identifier, detail: "the threshold \(threshold) is outside 0...255")
        }
        return try processDecodingData(item, in: context) { $0.kf.trimmed(threshold: threshold, color: color) }
    }
}
