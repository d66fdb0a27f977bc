// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Applies anti-aliased shapes (``RoundedRectCoverage``) to RGBA8 pixels.
enum Masking {
    /// Keeps `pixels` where `shape` covers them; outside, `background` (or transparency).
    static func apply(
        _ shape: RoundedRectCoverage, to pixels: [UInt8], width: Int, height: Int,
        background: KingfisherColor?
    ) -> [UInt8] {
        let bg = background.map { SIMD4<Float>(Float($0.red), Float($0.green), Float($0.blue), Float($0.alpha)) } ?? .zero
        return PixelBuffer.make(count: pixels.count) { out in
            pixels.withUnsafeBufferPointer { source in
                let s = source.baseAddress!
                ParallelRows.forEach(height, bytes: pixels.count) { rows in
                    for y in rows {
                        for x in 0..<width {
                            let i = (y * width + x) * 4
                            let coverage = shape.coverage(x: x, y: y)
                            if coverage >= 1 {
                                out[i] = s[i]
                                out[i + 1] = s[i + 1]
                                out[i + 2] = s[i + 2]
                                out[i + 3] = s[i + 3]
                                continue
                            }
                            let p = Compositing.load(s + i)
                            Compositing.store(mix(bg, p, coverage), to: out + i)
                        }
                    }
                }
            }
        }
    }

    /// Draws `color` over `pixels` in the band covered by `outer` and not by `inner`.
    static func stroke(
        outer: RoundedRectCoverage, inner: RoundedRectCoverage, color: KingfisherColor,
        over pixels: [UInt8], width: Int, height: Int
    ) -> [UInt8] {
        let ink = SIMD4<Float>(Float(color.red), Float(color.green), Float(color.blue), Float(color.alpha))
        var out = pixels
        out.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            ParallelRows.forEach(height, bytes: pixels.count) { rows in
                for y in rows {
                    for x in 0..<width {
                        let band = outer.coverage(x: x, y: y) - inner.coverage(x: x, y: y)
                        guard band > 0 else { continue }
                        let i = (y * width + x) * 4
                        let backdrop = Compositing.load(p + i)
                        var source = ink
                        source.w *= band
                        Compositing.store(Compositing.composite(source, backdrop, mode: .normal, alpha: 1), to: p + i)
                    }
                }
            }
        }
        return out
    }

    /// Straight-alpha mix of `a` (weight 1 - t) and `b` (weight t), alpha-weighted.
    @inline(__always)
    private static func mix(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: Float) -> SIMD4<Float> {
        let alpha = a.w * (1 - t) + b.w * t
        guard alpha > 0 else { return .zero }
        let ca = SIMD3(a.x, a.y, a.z) * a.w * (1 - t)
        let cb = SIMD3(b.x, b.y, b.z) * b.w * t
        let c = (ca + cb) / alpha
        return SIMD4(c.x, c.y, c.z, alpha)
    }
}
