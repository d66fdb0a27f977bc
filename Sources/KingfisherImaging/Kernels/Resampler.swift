// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Separable Lanczos-3 resampling of RGBA8 pixels in fixed point.
///
/// Two passes (horizontal, then vertical) with per-output weights computed once per axis, as
/// Pillow and libvips do. When the image may be non-opaque, colour is weighted by alpha
/// (premultiplied for the filter, then divided back), so transparent pixels leave no dark fringe.
enum Resampler {
    /// Fixed-point precision of the filter weights.
    private static let precisionBits: Int32 = 14
    private static let lanczosRadius = 3.0

    /// Weights of one axis: output `i` reads `count` inputs from `starts[i]` with
    /// `weights[i * taps ..< i * taps + count]`.
    private struct AxisWeights {
        var starts: [Int]
        var counts: [Int]
        var weights: [Int32]
        var taps: Int
    }

    private static func lanczos(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= lanczosRadius { return 0 }
        let px = Double.pi * x
        return lanczosRadius * sin(px) * sin(px / lanczosRadius) / (px * px)
    }

    private static func axisWeights(input: Int, output: Int) -> AxisWeights {
        let scale = Double(input) / Double(output)
        let filterScale = max(scale, 1)
        let support = lanczosRadius * filterScale
        let taps = Int(ceil(support)) * 2 + 1
        var starts = [Int](repeating: 0, count: output)
        var counts = [Int](repeating: 0, count: output)
        var weights = [Int32](repeating: 0, count: output * taps)
        var real = [Double](repeating: 0, count: taps)
        let one = Double(1 << precisionBits)
        for i in 0..<output {
            let center = (Double(i) + 0.5) * scale
            let first = max(0, Int(center - support + 0.5))
            let last = min(input, Int(center + support + 0.5))
            let count = min(max(last - first, 1), taps)
            var total = 0.0
            for k in 0..<count {
                let w = lanczos((Double(first + k) + 0.5 - center) / filterScale)
                real[k] = w
                total += w
            }
            if total == 0 {
                total = 1
                real[0] = 1
            }
            var sum: Int32 = 0
            var peak = 0
            for k in 0..<count {
                let w = Int32((real[k] / total * one).rounded())
                weights[i * taps + k] = w
                sum += w
                if real[k] > real[peak] { peak = k }
            }
            weights[i * taps + peak] += Int32(one) - sum  // weights add up to exactly one
            starts[i] = min(first, input - count)
            counts[i] = count
        }
        return AxisWeights(starts: starts, counts: counts, weights: weights, taps: taps)
    }

    @inline(__always)
    private static func clampToByte(_ value: Int32) -> UInt8 {
        let v = value >> precisionBits
        return v < 0 ? 0 : (v > 255 ? 255 : UInt8(truncatingIfNeeded: v))
    }

    /// Resamples `pixels` (RGBA8, `width` x `height`) to `outWidth` x `outHeight`.
    static func resize(
        _ pixels: [UInt8], width: Int, height: Int,
        to outWidth: Int, _ outHeight: Int, hasAlpha: Bool
    ) -> [UInt8] {
        if width == outWidth && height == outHeight { return pixels }
        let source = hasAlpha ? AlphaWeighting.premultiplied(pixels) : pixels
        // Vertical first: its inner loop runs along whole rows and vectorises, so it is the
        // cheaper pass per tap; doing it first leaves fewer rows for the horizontal pass.
        let vertical =
            height == outHeight
            ? source : resizeVertically(source, width: width, height: height, to: outHeight)
        var result =
            width == outWidth
            ? vertical : resizeHorizontally(vertical, width: width, height: outHeight, to: outWidth)
        if hasAlpha { AlphaWeighting.unpremultiply(&result) }
        return result
    }

    private static func resizeHorizontally(_ src: [UInt8], width: Int, height: Int, to outWidth: Int) -> [UInt8] {
        let axis = axisWeights(input: width, output: outWidth)
        let rounding = SIMD4<Int32>(repeating: 1 << (precisionBits - 1))
        return PixelBuffer.make(count: outWidth * height * 4) { dst in
            src.withUnsafeBufferPointer { srcBuffer in
                axis.weights.withUnsafeBufferPointer { weights in
                    let s = srcBuffer.baseAddress!
                    ParallelRows.forEach(height, bytes: src.count) { rows in
                        for y in rows {
                            let srcRow = s + y * width * 4
                            let dstRow = dst + y * outWidth * 4
                            for x in 0..<outWidth {
                                var sum = rounding
                                let w = weights.baseAddress! + x * axis.taps
                                var p = srcRow + axis.starts[x] * 4
                                for k in 0..<axis.counts[x] {
                                    sum &+= SIMD4<Int32>(Int32(p[0]), Int32(p[1]), Int32(p[2]), Int32(p[3])) &* w[k]
                                    p += 4
                                }
                                let o = dstRow + x * 4
                                o[0] = clampToByte(sum[0])
                                o[1] = clampToByte(sum[1])
                                o[2] = clampToByte(sum[2])
                                o[3] = clampToByte(sum[3])
                            }
                        }
                    }
                }
            }
        }
    }

    private static func resizeVertically(_ src: [UInt8], width: Int, height: Int, to outHeight: Int) -> [UInt8] {
        let axis = axisWeights(input: height, output: outHeight)
        let rowBytes = width * 4
        let rounding: Int32 = 1 << (precisionBits - 1)
        return PixelBuffer.make(count: rowBytes * outHeight) { dst in
            src.withUnsafeBufferPointer { srcBuffer in
                let s = srcBuffer.baseAddress!
                ParallelRows.forEach(outHeight, bytes: rowBytes * outHeight * axis.taps) { rows in
                    var accumulator = [Int32](repeating: 0, count: rowBytes)
                    accumulator.withUnsafeMutableBufferPointer { accBuffer in
                        let acc = accBuffer.baseAddress!
                        for y in rows {
                            for j in 0..<rowBytes { acc[j] = rounding }
                            let start = axis.starts[y]
                            for k in 0..<axis.counts[y] {
                                let wk = axis.weights[y * axis.taps + k]
                                let row = s + (start + k) * rowBytes
                                for j in 0..<rowBytes { acc[j] &+= wk &* Int32(row[j]) }
                            }
                            let out = dst + y * rowBytes
                            for j in 0..<rowBytes { out[j] = clampToByte(acc[j]) }
                        }
                    }
                }
            }
        }
    }
}
