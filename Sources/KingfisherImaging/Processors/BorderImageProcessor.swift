// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Strokes a ``Border`` inside the edges of images.
public struct BorderImageProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.BorderImageProcessor(<border>`, as Kingfisher writes it
    /// (without a closing parenthesis).
    public var identifier: String { "com.onevcat.Kingfisher.BorderImageProcessor(\(border.identifier)" }
    /// The border to draw.
    public let border: Border

    /// Creates a border processor.
    public init(border: Border) {
        self.border = border
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { $0.kf.addingBorder(border) }
    }
}
