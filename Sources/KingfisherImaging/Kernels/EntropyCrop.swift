// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Where to cut the most detailed part of an image, as libvips' `entropy` smart crop does: slices
/// are taken off the sides, in about eight steps on the axis that loses most, each time from the
/// side whose slice holds less information (the Shannon entropy of its luma histogram).
enum EntropyCrop {
    /// The top-left corner of the `cropWidth` x `cropHeight` crop of `pixels` (`width` x `height`).
    static func origin(in pixels: [UInt8], width: Int, height: Int, cropWidth: Int, cropHeight: Int) -> (x: Int, y: Int) {
        var (left, top, currentWidth, currentHeight) = (0, 0, width, height)
        let slice = max(
            Int((Double(width - cropWidth) / 8).rounded(.up)), Int((Double(height - cropHeight) / 8).rounded(.up)), 1)
        while currentWidth > cropWidth || currentHeight > cropHeight {
            let sliceWidth = min(currentWidth - cropWidth, slice)
            if sliceWidth > 0 {
                let leftScore = entropy(pixels, width, x: left, y: top, sliceWidth, currentHeight)
                let rightScore = entropy(pixels, width, x: left + currentWidth - sliceWidth, y: top, sliceWidth, currentHeight)
                currentWidth -= sliceWidth
                if leftScore < rightScore { left += sliceWidth }
            }
            let sliceHeight = min(currentHeight - cropHeight, slice)
            if sliceHeight > 0 {
                let topScore = entropy(pixels, width, x: left, y: top, currentWidth, sliceHeight)
                let bottomScore = entropy(pixels, width, x: left, y: top + currentHeight - sliceHeight, currentWidth, sliceHeight)
                currentHeight -= sliceHeight
                if topScore < bottomScore { top += sliceHeight }
            }
        }
        return (left, top)
    }

    /// The entropy, in bits, of the luma histogram of a rectangle.
    private static func entropy(_ pixels: [UInt8], _ stride: Int, x: Int, y: Int, _ width: Int, _ height: Int) -> Double {
        var histogram = [Int](repeating: 0, count: 256)
        pixels.withUnsafeBufferPointer { buffer in
            for row in y..<(y + height) {
                var p = buffer.baseAddress! + (row * stride + x) * 4
                for _ in 0..<width {
                    // Rec. 601 luma in fixed point: (77 R + 150 G + 29 B) / 256.
                    let luma = (77 * Int(p[0]) + 150 * Int(p[1]) + 29 * Int(p[2])) >> 8
                    histogram[luma] += 1
                    p += 4
                }
            }
        }
        let total = Double(width * height)
        return histogram.reduce(0) { sum, count in
            guard count > 0 else { return sum }
            let share = Double(count) / total
            return sum - share * log2(share)
        }
    }
}
