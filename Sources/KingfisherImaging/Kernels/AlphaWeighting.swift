// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Conversion between straight and alpha-weighted (premultiplied) RGBA8.
enum AlphaWeighting {
    /// Returns a copy of straight-alpha `pixels` with colour multiplied by alpha.
    static func premultiplied(_ pixels: [UInt8]) -> [UInt8] {
        var out = pixels
        out.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            var i = 0
            while i < buffer.count {
                let a = UInt32(p[i + 3])
                if a != 255 {
                    p[i] = UInt8((UInt32(p[i]) * a + 127) / 255)
                    p[i + 1] = UInt8((UInt32(p[i + 1]) * a + 127) / 255)
                    p[i + 2] = UInt8((UInt32(p[i + 2]) * a + 127) / 255)
                }
                i += 4
            }
        }
        return out
    }

    /// Divides colour by alpha in place, turning premultiplied pixels back into straight alpha.
    static func unpremultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            var i = 0
            while i < buffer.count {
                let a = UInt32(p[i + 3])
                if a == 0 {
                    p[i] = 0
                    p[i + 1] = 0
                    p[i + 2] = 0
                } else if a != 255 {
                    p[i] = UInt8(min(255, (UInt32(p[i]) * 255 + a / 2) / a))
                    p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * 255 + a / 2) / a))
                    p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * 255 + a / 2) / a))
                }
                i += 4
            }
        }
    }
}
