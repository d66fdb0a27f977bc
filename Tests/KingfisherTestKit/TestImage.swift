// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher

/// A photo-like RGBA test image with smooth gradients, texture and an optional alpha ramp.
package func makeTestImage(width: Int, height: Int, alpha: Bool = false) -> KingfisherImage {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    var seed: UInt32 = 12345
    for y in 0..<height {
        for x in 0..<width {
            seed = seed &* 1_103_515_245 &+ 12345
            let noise = Int(seed >> 28) - 8
            let i = (y * width + x) * 4
            pixels[i] = UInt8(clamping: x * 255 / max(width - 1, 1) + noise)
            pixels[i + 1] = UInt8(clamping: y * 255 / max(height - 1, 1) + noise)
            pixels[i + 2] = UInt8(clamping: 128 + Int(60 * sin(Double(x + y) / 7)) + noise)
            pixels[i + 3] = alpha ? UInt8(clamping: 255 - x * 255 / max(width - 1, 1)) : 255
        }
    }
    return KingfisherImage(width: width, height: height, pixels: pixels, hasAlpha: alpha)
}
