// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a processor needs besides its input: the scale of the images it makes, and the decoding
/// settings and limits for data it decodes and images it creates.
///
/// `Kingfisher` makes one from its parsed options (`scaleFactor`, `maxPixelCount`, …).
public struct ImageProcessingContext: Sendable {
    /// Decoding settings and limits. Its `scale` is the scale of processed images and its
    /// `maxPixelCount` also bounds every processor's output. Default `ImageCreatingOptions()`
    /// (scale 1, 100 megapixels).
    public var imageCreatingOptions: ImageCreatingOptions

    /// The scale of processed images (points = pixels / scale); sizes given to processors in
    /// points are multiplied by it. Same as `imageCreatingOptions.scale`.
    public var scaleFactor: CGFloat { imageCreatingOptions.scale }

    /// Creates a context; the default decodes at scale 1 within the default limits.
    public init(imageCreatingOptions: ImageCreatingOptions = ImageCreatingOptions()) {
        self.imageCreatingOptions = imageCreatingOptions
    }
}
