// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// An RGBA8 image placed on a larger canvas of one colour: what extending and padding make.
enum PixelCanvas {
    /// `pixels` (`width` x `height`) with its top-left corner at (`x`, `y`) of a `canvasWidth` x
    /// `canvasHeight` canvas of `fill` (transparent when `nil`). The image must lie inside.
    static func placing(
        _ pixels: [UInt8], width: Int, height: Int, canvasWidth: Int, canvasHeight: Int, x: Int, y: Int,
        fill: KingfisherColor?
    ) -> [UInt8] {
        precondition(x >= 0 && y >= 0 && x + width <= canvasWidth && y + height <= canvasHeight, "the image must lie on the canvas")
        let color = fill?.rgba8 ?? (r: 0, g: 0, b: 0, a: 0)
        let low = UInt32(color.r) | UInt32(color.g) << 8
        let word = low | UInt32(color.b) << 16 | UInt32(color.a) << 24
        let rowBytes = width * 4
        return PixelBuffer.make(count: canvasWidth * canvasHeight * 4) { out in
            pixels.withUnsafeBufferPointer { source in
                let target = UnsafeMutableRawPointer(out)
                ParallelRows.forEach(canvasHeight, bytes: canvasWidth * canvasHeight * 4) { rows in
                    for row in rows {
                        let line = row * canvasWidth
                        // Little-endian words: R is the lowest byte.
                        func fill(_ columns: Range<Int>) {
                            for column in columns {
                                target.storeBytes(of: UInt32(littleEndian: word), toByteOffset: (line + column) * 4, as: UInt32.self)
                            }
                        }
                        guard row >= y && row < y + height else {
                            fill(0..<canvasWidth)
                            continue
                        }
                        fill(0..<x)
                        (out + (line + x) * 4).update(from: source.baseAddress! + (row - y) * rowBytes, count: rowBytes)
                        fill((x + width)..<canvasWidth)
                    }
                }
            }
        }
    }
}
