// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// The processing of `-`: the image as decoded, under an identifier of its own.
///
/// ``DefaultImageProcessor``'s empty identifier would do the same work, but the manager keeps
/// the original on disk (`cacheOriginalImage`) only for a processor with an identifier, and
/// another processing of the same source must find it there.
struct OriginalImageProcessor: ImageProcessing, ImageProcessor {
    /// `com.kingfisher-linux.serve.original`.
    let identifier = "com.kingfisher-linux.serve.original"

    func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try DefaultImageProcessor.default.process(item, in: context)
    }
}
