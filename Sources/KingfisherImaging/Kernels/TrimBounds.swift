// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// What is left of an RGBA8 image without its uniform border: the smallest rectangle holding
/// every pixel that differs from the border's colour.
enum TrimBounds {
    /// The rectangle of `pixels` (`width` x `height`) outside which every pixel is `background`
    /// within `threshold` in each channel (two pixels whose alphas are both within `threshold` of
    /// 0 match whatever their colour), or `nil` when every pixel is.
    static func content(
        of pixels: [UInt8], width: Int, height: Int, background: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), threshold: Int
    ) -> (x: Int, y: Int, width: Int, height: Int)? {
        let reference = SIMD4<Int32>(Int32(background.r), Int32(background.g), Int32(background.b), Int32(background.a))
        let limit = SIMD4<Int32>(repeating: Int32(threshold))
        let transparentBackground = Int(background.a) <= threshold
        return pixels.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            func differs(_ x: Int, _ y: Int) -> Bool {
                let p = base + (y * width + x) * 4
                if transparentBackground, Int(p[3]) <= threshold { return false }
                let pixel = SIMD4<Int32>(Int32(p[0]), Int32(p[1]), Int32(p[2]), Int32(p[3]))
                let distance = pixel &- reference
                return any((distance .> limit) .| (distance .< 0 &- limit))
            }
            guard let top = (0..<height).first(where: { y in (0..<width).contains { differs($0, y) } }),
                let bottom = (top..<height).reversed().first(where: { y in (0..<width).contains { differs($0, y) } })
            else { return nil }
            var left = width
            var right = -1
            for y in top...bottom {
                // Only the columns that could still widen the rectangle are read.
                if let first = (0..<left).first(where: { differs($0, y) }) { left = first }
                if let last = (max(left, right + 1)..<width).reversed().first(where: { differs($0, y) }) { right = last }
            }
            return (left, top, right - left + 1, bottom - top + 1)
        }
    }
}
