// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// An RGBA8 image in blocks of one colour: each square of `block` pixels from the top-left
/// corner (cut short at the right and bottom edges) takes the average of its pixels, weighted by
/// alpha, rounded half up.
enum Pixelation {
    /// `pixels` (`width` x `height`) in blocks of `block` x `block` pixels.
    static func pixelate(_ pixels: [UInt8], width: Int, height: Int, block: Int) -> [UInt8] {
        let block = max(1, block)
        let blockRows = (height + block - 1) / block
        return PixelBuffer.make(count: pixels.count) { out in
            pixels.withUnsafeBufferPointer { buffer in
                let source = buffer.baseAddress!
                ParallelRows.forEach(blockRows, bytes: pixels.count) { range in
                    for blockRow in range {
                        let rows = (blockRow * block)..<min(height, (blockRow + 1) * block)
                        var x0 = 0
                        while x0 < width {
                            let columns = x0..<min(width, x0 + block)
                            var weighted = SIMD3<Int>(repeating: 0)
                            var alpha = 0
                            for y in rows {
                                for x in columns {
                                    let p = source + (y * width + x) * 4
                                    let a = Int(p[3])
                                    weighted &+= SIMD3(Int(p[0]), Int(p[1]), Int(p[2])) &* a
                                    alpha &+= a
                                }
                            }
                            let count = rows.count * columns.count
                            let color: SIMD3<Int> = alpha == 0 ? .zero : (weighted &+ alpha / 2) / alpha
                            let average = (
                                UInt8(color[0]), UInt8(color[1]), UInt8(color[2]), UInt8((alpha + count / 2) / count)
                            )
                            for y in rows {
                                for x in columns {
                                    let o = out + (y * width + x) * 4
                                    (o[0], o[1], o[2], o[3]) = average
                                }
                            }
                            x0 = columns.upperBound
                        }
                    }
                }
            }
        }
    }
}
