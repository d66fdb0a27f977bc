// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Core Image's `CIColorControls` followed by `CIExposureAdjust`, computed as Core Image does:
/// in linear light (its default working space), on straight colour.
///
/// - saturation: mix between the Rec. 709 luminance and the colour (0 = gray, 1 = unchanged);
/// - brightness: added to each component (0 = unchanged);
/// - contrast: scales around 0.5 (1 = unchanged);
/// - inputEV: multiplies by 2^EV (0 = unchanged).
struct ColorAdjustment {
    var brightness: Float
    var contrast: Float
    var saturation: Float
    var exposure: Float

    /// sRGB byte → linear value.
    private static let toLinear: [Float] = (0..<256).map { index in
        let c = Float(index) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    /// Linear value (quantised to 1/4095) → sRGB byte.
    private static let tableSize = 4096
    private static let toSRGB: [UInt8] = (0..<tableSize).map { index in
        let l = Float(index) / Float(tableSize - 1)
        let c = l <= 0.0031308 ? l * 12.92 : 1.055 * powf(l, 1 / 2.4) - 0.055
        return UInt8(min(max(c * 255, 0), 255).rounded())
    }

    func apply(_ pixels: [UInt8]) -> [UInt8] {
        let count = pixels.count / 4
        let luminance = SIMD3<Float>(0.2125, 0.7154, 0.0721)
        let scale = Float(Self.tableSize - 1)
        let gain = powf(2, exposure)
        return PixelBuffer.make(count: pixels.count) { out in
            pixels.withUnsafeBufferPointer { source in
                Self.toLinear.withUnsafeBufferPointer { linear in
                    Self.toSRGB.withUnsafeBufferPointer { encode in
                        let s = source.baseAddress!
                        ParallelRows.forEach(count, bytes: pixels.count) { range in
                            for i in range {
                                let p = s + i * 4
                                var c = SIMD3(linear[Int(p[0])], linear[Int(p[1])], linear[Int(p[2])])
                                let l = (c * luminance).sum()
                                c = SIMD3(repeating: l) + (c - SIMD3(repeating: l)) * saturation
                                c += brightness
                                c = (c - 0.5) * contrast + 0.5
                                c *= gain
                                let indices = (c.clamped(lowerBound: .zero, upperBound: .one) * scale).rounded(.toNearestOrAwayFromZero)
                                let o = out + i * 4
                                o[0] = encode[Int(indices.x)]
                                o[1] = encode[Int(indices.y)]
                                o[2] = encode[Int(indices.z)]
                                o[3] = p[3]
                            }
                        }
                    }
                }
            }
        }
    }
}
