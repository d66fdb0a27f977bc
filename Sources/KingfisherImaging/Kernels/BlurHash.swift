// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// BlurHash (blurha.sh): an image's colours as a few cosine components in linear light, written
/// in base 83, from which a client draws a blurred placeholder of any size.
enum BlurHash {
    private static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    /// The hash of straight-alpha RGBA `pixels` (`width` x `height`; transparency ignored) with
    /// `xComponents` x `yComponents` components (each 1…9).
    static func encode(_ pixels: [UInt8], width: Int, height: Int, xComponents: Int = 4, yComponents: Int = 3) -> String {
        let linear = (0...255).map { sRGBToLinear(Double($0)) }
        var factors: [SIMD3<Double>] = []
        let cosX = (0..<xComponents).map { i in (0..<width).map { cos(Double.pi * Double(i) * Double($0) / Double(width)) } }
        let cosY = (0..<yComponents).map { j in (0..<height).map { cos(Double.pi * Double(j) * Double($0) / Double(height)) } }
        for j in 0..<yComponents {
            for i in 0..<xComponents {
                var sum = SIMD3<Double>.zero
                for y in 0..<height {
                    for x in 0..<width {
                        let p = (y * width + x) * 4
                        let colour = SIMD3(linear[Int(pixels[p])], linear[Int(pixels[p + 1])], linear[Int(pixels[p + 2])])
                        sum += colour * (cosX[i][x] * cosY[j][y])
                    }
                }
                let normalisation: Double = i == 0 && j == 0 ? 1 : 2
                factors.append(sum * normalisation / Double(width * height))
            }
        }
        var hash = base83((xComponents - 1) + (yComponents - 1) * 9, length: 1)
        let ac = factors.dropFirst()
        let maximum: Double
        if let largest = ac.map({ max(abs($0.x), abs($0.y), abs($0.z)) }).max() {
            let quantised = Int(max(0, min(82, (largest * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            hash += base83(quantised, length: 1)
        } else {
            maximum = 1
            hash += base83(0, length: 1)
        }
        let dc = factors[0]
        hash += base83(linearToSRGB(dc.x) << 16 | linearToSRGB(dc.y) << 8 | linearToSRGB(dc.z), length: 4)
        for factor in ac {
            func quantise(_ value: Double) -> Int {
                let scaled = value / maximum
                let signed = (scaled < 0 ? -1 : 1) * pow(abs(scaled), 0.5)
                return Int(max(0, min(18, (signed * 9 + 9.5).rounded(.down))))
            }
            hash += base83(quantise(factor.x) * 19 * 19 + quantise(factor.y) * 19 + quantise(factor.z), length: 2)
        }
        return hash
    }

    private static func base83(_ value: Int, length: Int) -> String {
        var text = ""
        for position in 1...length {
            var power = 1
            for _ in 0..<(length - position) { power *= 83 }
            text.append(Character(UnicodeScalar(digits[(value / power) % 83])))
        }
        return text
    }

    private static func sRGBToLinear(_ byte: Double) -> Double {
        let v = byte / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    private static func linearToSRGB(_ value: Double) -> Int {
        let v = max(0, min(1, value))
        return v <= 0.003_130_8 ? Int(v * 12.92 * 255 + 0.5) : Int((1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
    }
}
