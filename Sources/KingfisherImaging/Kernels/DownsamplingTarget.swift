// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// How to fit an image into a downsampling target.
enum DownsamplingTarget {
    /// The size an image of `width` x `height` gets when its longest side is reduced to
    /// `maxPixelSize` with the aspect ratio kept; never larger than the image itself.
    static func fit(width: Int, height: Int, maxPixelSize: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard maxPixelSize > 0, longest > maxPixelSize else { return (width, height) }
        let ratio = Double(maxPixelSize) / Double(longest)
        return (max(1, Int((Double(width) * ratio).rounded())), max(1, Int((Double(height) * ratio).rounded())))
    }
}
