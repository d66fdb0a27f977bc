// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// A small RGBA8 image drawn source-over, with an opacity, onto a larger one: once at a place
/// (where it may lie partly outside, and is clipped), or repeated from the top-left corner: what
/// watermarks are.
enum Stamping {
    /// Where the stamp goes.
    enum Placement {
        /// Once, its top-left corner at (x, y).
        case once(x: Int, y: Int)
        /// Repeated across the whole image from its top-left corner.
        case tiled
    }

    /// `pixels` (`width` x `height`) with `stamp` (`stampWidth` x `stampHeight`) drawn as
    /// `placement` says with `opacity` (0…1).
    static func draw(
        _ stamp: [UInt8], stampWidth: Int, stampHeight: Int, opacity: Float, placement: Placement,
        over pixels: [UInt8], width: Int, height: Int
    ) -> [UInt8] {
        let (originX, originY, rows, columns): (Int, Int, Range<Int>, Range<Int>)
        switch placement {
        case .once(let x, let y):
            (originX, originY) = (x, y)
            rows = max(0, y)..<max(max(0, y), min(height, y + stampHeight))
            columns = max(0, x)..<max(max(0, x), min(width, x + stampWidth))
        case .tiled:
            (originX, originY, rows, columns) = (0, 0, 0..<height, 0..<width)
        }
        var out = pixels
        stamp.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                let (s0, t0) = (source.baseAddress!, target.baseAddress!)
                ParallelRows.forEach(rows.count, bytes: rows.count * columns.count * 4) { slice in
                    for row in slice {
                        let y = rows.lowerBound + row
                        let stampRow = (y - originY) % stampHeight
                        for x in columns {
                            let s = s0 + (stampRow * stampWidth + (x - originX) % stampWidth) * 4
                            guard s[3] != 0 else { continue }
                            let b = t0 + (y * width + x) * 4
                            Compositing.store(
                                Compositing.composite(Compositing.load(s), Compositing.load(b), mode: .normal, alpha: opacity), to: b)
                        }
                    }
                }
            }
        }
        return out
    }
}
