// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// A downsampled decode: the first byte sets the target's longer side (1 to 256 pixels), the
/// rest is the image.
enum DownsampleFuzzing {
    static func run(_ data: Data) {
        guard let first = data.first else { return }
        let side = CGFloat(Int(first) + 1)
        let processor = DownsamplingImageProcessor(size: CGSize(width: side, height: side))
        let context = ImageProcessingContext(imageCreatingOptions: ImageCreatingOptions(maxPixelCount: FuzzTarget.maxPixelCount))
        FuzzTarget.expectingLibraryErrors {
            let image = try processor.process(.data(data.dropFirst()), in: context)
            precondition(image.pixelWidth <= Int(side) && image.pixelHeight <= Int(side), "larger than the target")
        }
    }
}
