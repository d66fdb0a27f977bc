// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Decodes the complete scans of a progressive JPEG received so far into a preview.
package enum ProgressivePreview {
    /// The preview of `prefix` (the bytes before the start of scan `scanCount`, so holding every
    /// earlier scan complete) of a `width` x `height` JPEG: decoded at a quarter of the resolution
    /// (the DCT scales the decoder down, so no full-size pixels are made), blurred while fewer
    /// than six scans were seen when `isBlur` (Kingfisher's radius, scaled), and given the scale
    /// that keeps the final image's point size.
    /// `nil` when the bytes do not decode.
    package static func image(
        of prefix: Data, scanCount: Int, width: Int, height: Int, isBlur: Bool,
        options: ImageCreatingOptions
    ) -> KFCrossPlatformImage? {
        let longest = max(width, height)
        guard longest > 0 else { return nil }
        var data = prefix
        data.append(contentsOf: [0xFF, 0xD9])
        let side = max(1, (longest + 3) / 4)
        guard var preview = try? KingfisherImage.downsampled(data: data, maxPixelSize: side, options: options) else { return nil }
        if isBlur, scanCount < 6 {
            // Kingfisher's radius at full size, scaled to the preview's.
            let fullSizeRadius = CGFloat(max(2, 14 - 4 * scanCount))
            preview = preview.kf.blurred(withRadius: max(1, fullSizeRadius * CGFloat(side) / CGFloat(longest)))
        }
        return preview.kf.scaled(to: options.scale * CGFloat(max(preview.pixelWidth, preview.pixelHeight)) / CGFloat(longest))
    }
}
