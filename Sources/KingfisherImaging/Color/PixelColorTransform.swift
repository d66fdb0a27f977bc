// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Converts pixels to sRGB: RGBA8 in place (alpha untouched), or CMYK8 to opaque RGBA8 in place.
protocol PixelColorTransform: Sendable {
    /// Converts `count` pixels of 4 bytes at `pixels`. Safe to call from several threads at once
    /// on disjoint pixels.
    func convert(_ pixels: UnsafeMutablePointer<UInt8>, count: Int)
}

extension PixelColorTransform {
    /// Converts `count` pixels, split across the cores when there are enough of them.
    func convertInParallel(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        // Chunks of 64K pixels keep each thread's slice in cache-friendly runs.
        let chunk = 1 << 16
        let chunks = (count + chunk - 1) / chunk
        ParallelRows.forEach(chunks, bytes: count * 4) { range in
            let start = range.lowerBound * chunk
            let end = min(count, range.upperBound * chunk)
            convert(pixels + start * 4, count: end - start)
        }
    }
}
