// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// The colour most of an image is: pixels grouped by their colour at 4 bits a channel, weighted
/// by alpha; the average of the largest group.
enum DominantColour {
    /// The dominant colour of straight-alpha RGBA `pixels`, or `nil` when every pixel is
    /// transparent.
    static func of(_ pixels: [UInt8]) -> (r: UInt8, g: UInt8, b: UInt8)? {
        var weights = [Int](repeating: 0, count: 4096)
        var sums = [SIMD3<Int>](repeating: .zero, count: 4096)
        for p in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = Int(pixels[p + 3])
            guard alpha > 0 else { continue }
            let (r, g, b) = (Int(pixels[p]), Int(pixels[p + 1]), Int(pixels[p + 2]))
            let bucket = (r >> 4) << 8 | (g >> 4) << 4 | b >> 4
            weights[bucket] += alpha
            sums[bucket] &+= SIMD3(r, g, b) &* alpha
        }
        guard let best = weights.indices.max(by: { weights[$0] < weights[$1] }), weights[best] > 0 else { return nil }
        let mean = (sums[best] &+ weights[best] / 2) / weights[best]
        return (UInt8(mean.x), UInt8(mean.y), UInt8(mean.z))
    }
}
