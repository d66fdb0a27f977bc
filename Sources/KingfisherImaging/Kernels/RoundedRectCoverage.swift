// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Anti-aliased coverage of a rectangle with rounded corners, sampled at pixel centres from its
/// signed distance: 1 well inside, 0 outside, a one-pixel ramp along the edge.
struct RoundedRectCoverage {
    /// The rectangle in pixels.
    var minX: Float, minY: Float, maxX: Float, maxY: Float
    /// Corner radii in pixels: top-left, top-right, bottom-left, bottom-right (0 = square).
    var radii: SIMD4<Float>

    /// A rectangle `inset` pixels inside `width` x `height`, with `radius` on `corners`
    /// (clamped to half the shorter side, as UIBezierPath does).
    init(width: Int, height: Int, inset: Float = 0, radius: Float, corners: RectCorner) {
        minX = inset
        minY = inset
        maxX = Float(width) - inset
        maxY = Float(height) - inset
        let r = max(0, min(radius, min(maxX - minX, maxY - minY) / 2))
        radii = SIMD4(
            corners.contains(.topLeft) ? r : 0, corners.contains(.topRight) ? r : 0,
            corners.contains(.bottomLeft) ? r : 0, corners.contains(.bottomRight) ? r : 0)
    }

    /// Coverage 0…1 of the pixel whose top-left corner is (x, y).
    @inline(__always)
    func coverage(x: Int, y: Int) -> Float {
        let px = Float(x) + 0.5
        let py = Float(y) + 0.5
        let cx = (minX + maxX) / 2
        let cy = (minY + maxY) / 2
        let r = px < cx ? (py < cy ? radii[0] : radii[2]) : (py < cy ? radii[1] : radii[3])
        let qx = abs(px - cx) - (maxX - minX) / 2 + r
        let qy = abs(py - cy) - (maxY - minY) / 2 + r
        let outside = SIMD2(max(qx, 0), max(qy, 0))
        let distance = (outside * outside).sum().squareRoot() + min(max(qx, qy), 0) - r
        return min(max(0.5 - distance, 0), 1)
    }
}
