// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Where the eye goes in an image, found as libvips' `attention` smart crop (after smartcrop.js)
/// finds it: on a 32 x 32 reduction, the sum of three maps, edges (the Laplacian of luminance),
/// skin tones (how close a colour's direction in XYZ is to skin's) and red-green saturation (CIE
/// a\*), the last two only where it is not dark; blurred in proportion to the crop, its maximum
/// is the centre of interest.
enum AttentionCentre {
    private static let grid = 32
    /// The direction of skin tones in XYZ, normalised (smartcrop.js).
    private static let skin = SIMD3<Float>(0.78, 0.57, 0.44)

    /// The pixel of `pixels` (`width` x `height`) a crop of `cropWidth` x `cropHeight` pixels
    /// should centre on.
    static func locate(in pixels: [UInt8], width: Int, height: Int, cropWidth: Int, cropHeight: Int) -> (x: Int, y: Int) {
        let small = Resampler.resize(pixels, width: width, height: height, to: grid, grid, hasAlpha: true)
        let cells = grid * grid
        var luminance = [Float](repeating: 0, count: cells)
        var interest = [Float](repeating: 0, count: cells)
        for index in 0..<cells {
            let p = index * 4
            let alpha = Float(small[p + 3]) / 255
            let xyz = Self.xyz(SIMD3(Float(small[p]), Float(small[p + 1]), Float(small[p + 2])) * alpha)
            luminance[index] = xyz.y
            guard xyz.y > 5 else { continue }
            let direction = xyz / (xyz * xyz).sum().squareRoot()
            let distance = direction - skin
            interest[index] = 100 - 100 * (distance * distance).sum().squareRoot() + redGreen(xyz)
        }
        for y in 0..<grid {
            for x in 0..<grid {
                func at(_ x: Int, _ y: Int) -> Float { luminance[min(max(y, 0), grid - 1) * grid + min(max(x, 0), grid - 1)] }
                let laplacian = 4 * at(x, y) - at(x - 1, y) - at(x + 1, y) - at(x, y - 1) - at(x, y + 1)
                interest[y * grid + x] += abs(5 * laplacian)
            }
        }
        // The blur grows with the crop: how large an area the score should weigh.
        let cropX = Float(cropWidth) * Float(grid) / Float(width)
        let cropY = Float(cropHeight) * Float(grid) / Float(height)
        let blurred = blur(interest, sigma: max((cropX * cropX + cropY * cropY).squareRoot() / 10, 1))
        let best = blurred.indices.max { blurred[$0] < blurred[$1] || (blurred[$0] == blurred[$1] && $0 > $1) } ?? 0
        return ((best % grid) * width / grid, (best / grid) * height / grid)
    }

    /// sRGB bytes to CIE XYZ (D65) with Y in 0…100.
    private static func xyz(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        func linear(_ value: Float) -> Float {
            let v = value / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let r = linear(rgb.x)
        let g = linear(rgb.y)
        let b = linear(rgb.z)
        let x = 0.4124 * r + 0.3576 * g + 0.1805 * b
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = 0.0193 * r + 0.1192 * g + 0.9505 * b
        return SIMD3(x, y, z) * 100
    }

    /// CIE a\* of an XYZ colour (D65 white).
    private static func redGreen(_ xyz: SIMD3<Float>) -> Float {
        func f(_ t: Float) -> Float { t > 216 / 24389 ? cbrt(t) : t * 841 / 108 + 4 / 29 }
        return 500 * (f(xyz.x / 95.047) - f(xyz.y / 100))
    }

    /// `map` (grid x grid) blurred by a Gaussian of `sigma` cells, edges extended.
    private static func blur(_ map: [Float], sigma: Float) -> [Float] {
        let weights = GaussianKernel.weights(sigma: sigma)
        let radius = weights.count / 2
        func pass(_ input: [Float], across: Bool) -> [Float] {
            var output = [Float](repeating: 0, count: input.count)
            for y in 0..<grid {
                for x in 0..<grid {
                    var sum: Float = 0
                    for (tap, weight) in weights.enumerated() {
                        let offset = tap - radius
                        let (sx, sy) = across ? (min(max(x + offset, 0), grid - 1), y) : (x, min(max(y + offset, 0), grid - 1))
                        sum += input[sy * grid + sx] * weight
                    }
                    output[y * grid + x] = sum
                }
            }
            return output
        }
        return pass(pass(map, across: true), across: false)
    }
}
