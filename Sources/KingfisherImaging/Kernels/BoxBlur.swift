// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Repeated box blur of RGBA8 pixels, edges extended: three passes approximate a Gaussian (as
/// Kingfisher does with vImage, and the SVG specification describes). Each pass is a running sum,
/// so its cost does not depend on the radius. Non-opaque images are blurred alpha-weighted.
enum BoxBlur {
    private static let shift: UInt32 = 24

    /// Blurs `pixels` (`width` x `height`) with `passes` box passes of width `boxSize` (odd).
    static func blur(_ pixels: [UInt8], width: Int, height: Int, boxSize: Int, passes: Int, hasAlpha: Bool) -> [UInt8] {
        var current = hasAlpha ? AlphaWeighting.premultiplied(pixels) : pixels
        let radius = max(0, boxSize / 2)
        guard radius > 0, width > 0, height > 0 else { return pixels }
        var scratch = [UInt8](repeating: 0, count: current.count)
        for _ in 0..<passes {
            horizontal(current, into: &scratch, width: width, height: height, radius: radius)
            vertical(scratch, into: &current, width: width, height: height, radius: radius)
        }
        if hasAlpha { AlphaWeighting.unpremultiply(&current) }
        return current
    }

    private static func reciprocal(_ radius: Int) -> UInt32 {
        UInt32((UInt64(1) << UInt64(shift)) / UInt64(2 * radius + 1))
    }

    private static func horizontal(_ src: [UInt8], into dst: inout [UInt8], width: Int, height: Int, radius: Int) {
        let inverse = reciprocal(radius)
        let half: UInt32 = 1 << (shift - 1)
        let last = width - 1
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                let source = s.baseAddress!
                let target = d.baseAddress!
                ParallelRows.forEach(height, bytes: src.count) { rows in
                    for y in rows {
                        let row = source + y * width * 4
                        let out = target + y * width * 4
                        var sum = SIMD4<UInt32>(repeating: 0)
                        func pixel(_ x: Int) -> SIMD4<UInt32> {
                            let p = row + min(max(x, 0), last) * 4
                            return SIMD4(UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3]))
                        }
                        for x in -radius...radius { sum &+= pixel(x) }
                        for x in 0..<width {
                            let value = (sum &* inverse &+ half) &>> shift
                            let o = out + x * 4
                            o[0] = UInt8(truncatingIfNeeded: value[0])
                            o[1] = UInt8(truncatingIfNeeded: value[1])
                            o[2] = UInt8(truncatingIfNeeded: value[2])
                            o[3] = UInt8(truncatingIfNeeded: value[3])
                            sum &+= pixel(x + radius + 1)
                            sum &-= pixel(x - radius)
                        }
                    }
                }
            }
        }
    }

    private static func vertical(_ src: [UInt8], into dst: inout [UInt8], width: Int, height: Int, radius: Int) {
        let inverse = reciprocal(radius)
        let half: UInt32 = 1 << (shift - 1)
        let rowBytes = width * 4
        let last = height - 1
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                let source = s.baseAddress!
                let target = d.baseAddress!
                // Columns are independent: each chunk owns a band of bytes across all rows.
                ParallelRows.forEach(rowBytes, bytes: src.count) { band in
                    let count = band.count
                    var sums = [UInt32](repeating: 0, count: count)
                    sums.withUnsafeMutableBufferPointer { sumBuffer in
                        let sum = sumBuffer.baseAddress!
                        func row(_ y: Int) -> UnsafePointer<UInt8> {
                            source + min(max(y, 0), last) * rowBytes + band.lowerBound
                        }
                        for y in -radius...radius {
                            let r = row(y)
                            for j in 0..<count { sum[j] &+= UInt32(r[j]) }
                        }
                        for y in 0..<height {
                            let out = target + y * rowBytes + band.lowerBound
                            for j in 0..<count {
                                out[j] = UInt8(truncatingIfNeeded: (sum[j] &* inverse &+ half) &>> shift)
                            }
                            let incoming = row(y + radius + 1)
                            let outgoing = row(y - radius)
                            for j in 0..<count { sum[j] = sum[j] &+ UInt32(incoming[j]) &- UInt32(outgoing[j]) }
                        }
                    }
                }
            }
        }
    }
}
