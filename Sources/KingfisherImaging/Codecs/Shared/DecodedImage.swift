// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a format decoder hands back: upright frames of RGBA8 pixels plus what the container said.
/// An animation left to be decoded on demand has its first frame in `frames` and the rest in
/// `onDemand`.
struct DecodedImage {
    var width: Int
    var height: Int
    var frames: [ImageFrame]
    var loopCount: Int = 0
    var hasAlpha: Bool
    var orientation: ImageOrientation = .up
    /// The colour space of `frames` as the file declared it.
    var colorSpace: SourceColorSpace = .sRGB
    /// Every frame after the first, to be decoded when asked for.
    var onDemand: OnDemandAnimation?

    /// Applies `orientation` to every frame and records it.
    mutating func applyOrientation(_ orientation: ImageOrientation) {
        self.orientation = orientation
        guard orientation != .up else { return }
        var newWidth = width
        var newHeight = height
        frames = frames.map { frame in
            let upright = orientation.apply(to: frame.pixels, width: width, height: height)
            newWidth = upright.width
            newHeight = upright.height
            return ImageFrame(pixels: upright.pixels, duration: frame.duration)
        }
        width = newWidth
        height = newHeight
    }

    /// Resamples every frame to `newWidth` x `newHeight` (Lanczos-3, alpha-weighted).
    mutating func resample(to newWidth: Int, _ newHeight: Int) {
        guard newWidth != width || newHeight != height else { return }
        frames = frames.map { frame in
            ImageFrame(
                pixels: Resampler.resize(
                    frame.pixels, width: width, height: height,
                    to: newWidth, newHeight, hasAlpha: hasAlpha),
                duration: frame.duration)
        }
        width = newWidth
        height = newHeight
    }
}
