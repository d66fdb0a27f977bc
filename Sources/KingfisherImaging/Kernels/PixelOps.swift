// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Small whole-buffer operations on RGBA8 pixels shared by the encoders.
enum PixelOps {
    /// Whether every alpha byte is 255.
    static func isOpaque(_ pixels: [UInt8]) -> Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var all: UInt8 = 255
            var i = 3
            while i < buffer.count {
                all &= buffer[i]
                i += 4
            }
            return all == 255
        }
    }

    /// RGB8 samples (3 bytes per pixel) of RGBA8 pixels.
    static func dropAlpha(_ pixels: [UInt8]) -> [UInt8] {
        let count = pixels.count / 4
        return PixelBuffer.make(count: count * 3) { out in
            pixels.withUnsafeBufferPointer { src in
                let s = src.baseAddress!
                for i in 0..<count {
                    out[i * 3] = s[i * 4]
                    out[i * 3 + 1] = s[i * 4 + 1]
                    out[i * 3 + 2] = s[i * 4 + 2]
                }
            }
        }
    }

    /// A copy of straight-alpha `pixels` composited onto an opaque `background`: for formats
    /// without alpha.
    static func flattened(_ pixels: [UInt8], onto background: (r: UInt8, g: UInt8, b: UInt8)) -> [UInt8] {
        var out = pixels
        let backdrop = [UInt32(background.r), UInt32(background.g), UInt32(background.b)]
        out.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            var i = 0
            while i < buffer.count {
                let a = UInt32(p[i + 3])
                if a != 255 {
                    for c in 0..<3 {
                        p[i + c] = UInt8((UInt32(p[i + c]) * a + backdrop[c] * (255 - a) + 127) / 255)
                    }
                    p[i + 3] = 255
                }
                i += 4
            }
        }
        return out
    }
}
