// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A processor made of a `Filter`, as Kingfisher's `CIImageProcessor` (the name kept for code
/// written against it; there is no Core Image here). Conformers give an ``ImageProcessor/identifier``
/// and a ``filter``; images are filtered with `image.kf.apply(filter)`, data is decoded
/// first.
public protocol CIImageProcessor: ImageProcessor {
    /// The filter this processor applies.
    var filter: Filter { get }
}

extension CIImageProcessor {
    /// Applies ``filter`` to an image; decodes data with ``DefaultImageProcessor`` first.
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        switch item {
        case .image(let image): return image.kf.apply(filter)
        case .data: return (DefaultImageProcessor.default |> self).process(item: item, options: options)
        }
    }
}
