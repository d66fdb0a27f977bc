// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Sharpening by an unsharp mask: each pixel pushed away from its neighbourhood,
/// `out = in + amount · (in − gaussian(in))` per channel, as Pillow's `UnsharpMask` (with a
/// threshold of 0), sharp and libvips do. The Gaussian of standard deviation `sigma` is a
/// separable convolution over ±3σ, edges extended; non-opaque images are sharpened
/// alpha-weighted, so transparent pixels' colours do not bleed.
///
/// Rows go in bands: each band blurs its rows (and 3σ above and below) across, then down, in
/// a buffer of its own, so the work never holds a floating-point copy of the whole image.
enum UnsharpMask {
    private static let bandRows = 64

    /// `pixels` (`width` x `height`) sharpened.
    static func sharpen(_ pixels: [UInt8], width: Int, height: Int, sigma: Float, amount: Float) -> [UInt8] {
        let weights = GaussianKernel.weights(sigma: sigma)
        let radius = weights.count / 2
        guard radius > 0, width > 0, height > 0 else { return pixels }
        return PixelBuffer.make(count: pixels.count) { out in
            pixels.withUnsafeBufferPointer { buffer in
                weights.withUnsafeBufferPointer { taps in
                    let source = buffer.baseAddress!
                    ParallelRows.forEach(height, bytes: pixels.count * 8) { rows in
                        // The band's rows blurred across; one row of alpha-weighted floats with its
                        // edges extended; the sums down one row.
                        var across = [SIMD4<Float>](repeating: .zero, count: (bandRows + 2 * radius) * width)
                        var padded = [SIMD4<Float>](repeating: .zero, count: width + 2 * radius)
                        var down = [SIMD4<Float>](repeating: .zero, count: width)
                        var bandStart = rows.lowerBound
                        while bandStart < rows.upperBound {
                            let band = bandStart..<min(rows.upperBound, bandStart + bandRows)
                            let first = band.lowerBound - radius
                            across.withUnsafeMutableBufferPointer { scratch in
                                padded.withUnsafeMutableBufferPointer { row in
                                    for slot in 0..<(band.count + 2 * radius) {
                                        let line = source + min(max(first + slot, 0), height - 1) * width * 4
                                        blurAcross(
                                            line, width: width, taps: taps, row: row.baseAddress!,
                                            into: scratch.baseAddress! + slot * width)
                                    }
                                }
                                down.withUnsafeMutableBufferPointer { sums in
                                    for y in band {
                                        let top = scratch.baseAddress! + (y - first - radius) * width
                                        for x in 0..<width { sums[x] = top[x] * taps[0] }
                                        for tap in 1..<taps.count {
                                            let line = top + tap * width
                                            let weight = taps[tap]
                                            for x in 0..<width { sums[x] += line[x] * weight }
                                        }
                                        for x in 0..<width {
                                            let offset = (y * width + x) * 4
                                            store(sharpened(weighted(source + offset), blurred: sums[x], amount: amount), to: out + offset)
                                        }
                                    }
                                }
                            }
                            bandStart = band.upperBound
                        }
                    }
                }
            }
        }
    }

    /// One row blurred across, edges extended, as alpha-weighted 0…255 floats; `row` receives
    /// the row's pixels as such floats with `taps.count / 2` copies of its edge pixels each side.
    private static func blurAcross(
        _ line: UnsafePointer<UInt8>, width: Int, taps: UnsafeBufferPointer<Float>, row: UnsafeMutablePointer<SIMD4<Float>>,
        into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let radius = taps.count / 2
        for x in 0..<width { row[radius + x] = weighted(line + x * 4) }
        for x in 0..<radius {
            row[x] = row[radius]
            row[radius + width + x] = row[radius + width - 1]
        }
        for x in 0..<width { out[x] = row[x] * taps[0] }
        for tap in 1..<taps.count {
            let weight = taps[tap]
            let shifted = row + tap
            for x in 0..<width { out[x] += shifted[x] * weight }
        }
    }

    /// A pixel as 0…255 floats with its colour multiplied by its alpha (÷ 255).
    @inline(__always)
    private static func weighted(_ p: UnsafePointer<UInt8>) -> SIMD4<Float> {
        let pixel = SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
        guard p[3] != 255 else { return pixel }
        let scale = pixel[3] / 255
        return pixel * SIMD4(scale, scale, scale, 1)
    }

    @inline(__always)
    private static func sharpened(_ pixel: SIMD4<Float>, blurred: SIMD4<Float>, amount: Float) -> SIMD4<Float> {
        (pixel + (pixel - blurred) * amount).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
    }

    /// Writes an alpha-weighted pixel back as straight-alpha bytes, rounded.
    @inline(__always)
    private static func store(_ pixel: SIMD4<Float>, to p: UnsafeMutablePointer<UInt8>) {
        let alpha = pixel[3]
        var straight = pixel
        if alpha < 255 {
            let scale: Float = alpha > 0 ? 255 / alpha : 0
            straight *= SIMD4(scale, scale, scale, 1)
        }
        // Non-negative after the clamp: adding a half and truncating rounds half up.
        let bytes = straight.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255)) + 0.5
        p[0] = UInt8(bytes[0])
        p[1] = UInt8(bytes[1])
        p[2] = UInt8(bytes[2])
        p[3] = UInt8(bytes[3])
    }
}
