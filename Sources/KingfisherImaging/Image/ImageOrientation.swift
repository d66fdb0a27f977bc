// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// EXIF orientation values (TIFF tag 0x0112): how the stored pixels must be transformed to
/// be upright. The raw values 1-8 are the EXIF ones.
public enum ImageOrientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left/bottom-right diagonal.
    case leftMirrored = 5
    /// 6: needs a 90° clockwise turn to be upright.
    case right = 6
    /// 7: mirrored along the top-right/bottom-left diagonal.
    case rightMirrored = 7
    /// 8: needs a 90° counter-clockwise turn to be upright.
    case left = 8

    /// Whether applying the orientation swaps width and height.
    var swapsDimensions: Bool { rawValue >= 5 }

    /// Returns the upright pixels and their size for RGBA `pixels` of `width` x `height` stored
    /// with this orientation.
    func apply(to pixels: [UInt8], width: Int, height: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        if self == .up { return (pixels, width, height) }
        let (outWidth, outHeight) = swapsDimensions ? (height, width) : (width, height)
        // The source pixel of destination (dx, dy) is start + dx * stepX + dy * stepY.
        let w = width
        let h = height
        let (start, stepX, stepY): (Int, Int, Int)
        switch self {
        case .up: (start, stepX, stepY) = (0, 1, w)
        case .upMirrored: (start, stepX, stepY) = (w - 1, -1, w)
        case .down: (start, stepX, stepY) = ((h - 1) * w + w - 1, -1, -w)
        case .downMirrored: (start, stepX, stepY) = ((h - 1) * w, 1, -w)
        case .leftMirrored: (start, stepX, stepY) = (0, w, 1)
        case .right: (start, stepX, stepY) = ((h - 1) * w, -w, 1)
        case .rightMirrored: (start, stepX, stepY) = ((h - 1) * w + w - 1, -w, -1)
        case .left: (start, stepX, stepY) = (w - 1, w, -1)
        }
        let out = PixelBuffer.make(count: outWidth * outHeight * PixelBuffer.bytesPerPixel) { dstBytes in
            pixels.withUnsafeBytes { srcRaw in
                let src = srcRaw.bindMemory(to: UInt32.self).baseAddress!
                dstBytes.withMemoryRebound(to: UInt32.self, capacity: outWidth * outHeight) { dst in
                    for dy in 0..<outHeight {
                        var s = start + dy * stepY
                        let row = dst + dy * outWidth
                        for dx in 0..<outWidth {
                            row[dx] = src[s]
                            s += stepX
                        }
                    }
                }
            }
        }
        return (out, outWidth, outHeight)
    }
}
