// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a format's header reader finds without decoding a pixel: the same size, frames, alpha
/// and orientation a decode reports, and the colour space the file declares.
struct ImageHeader {
    /// The upright size: after the EXIF orientation (or HEIF/AVIF rotation) a decode applies.
    var width: Int
    var height: Int
    /// Each frame's duration; a still image has one frame of 0 seconds.
    var durations: [TimeInterval] = [0]
    /// 0 plays forever.
    var loopCount: Int = 0
    /// Whether the file can hold transparent pixels: an alpha channel or a transparent colour.
    var hasAlpha: Bool
    /// The EXIF orientation a decode reports (HEIF and AVIF rotations are not EXIF: `.up`).
    var orientation: ImageOrientation = .up
    var colorSpace: SourceColorSpace = .sRGB

    /// A header whose stored size `width` x `height` is shown turned by `orientation`.
    init(
        storedWidth width: Int, height: Int, orientation: ImageOrientation = .up, hasAlpha: Bool,
        colorSpace: SourceColorSpace = .sRGB
    ) {
        (self.width, self.height) = orientation.swapsDimensions ? (height, width) : (width, height)
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.colorSpace = colorSpace
    }
}
