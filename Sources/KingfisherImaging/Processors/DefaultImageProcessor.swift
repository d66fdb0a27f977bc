// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Decodes data into an image and passes images through (at the context's scale), as
/// Kingfisher's `DefaultImageProcessor`. Identifier `""`.
public struct DefaultImageProcessor: ImageProcessing {
    /// The shared instance.
    public static let `default` = DefaultImageProcessor()
    /// Always `""`.
    public let identifier = ""

    /// Creates the default processor; prefer ``default``.
    public init() {}

    /// Decodes `.data` with the context's decoding settings (scale, first frame only, limits);
    /// returns `.image` rescaled to ``ImageProcessingContext/scaleFactor``.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        switch item {
        case .image(let image):
            return image.kf.scaled(to: context.scaleFactor)
        case .data(let data):
            return try KingfisherImage.decode(data: data, options: context.imageCreatingOptions)
        }
    }
}
