// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Lossless moves of RGBA8 pixels: quarter turns and mirror images. Every output pixel is one
/// source pixel, read as a 32-bit word from `base + x · dx + y · dy`, in square tiles, so that a
/// turn reading the source down its columns stays within the cache.
enum PixelTransposition {
    /// A move: the output's size and where each output pixel comes from.
    struct Move {
        let width: Int
        let height: Int
        let base: Int
        let dx: Int
        let dy: Int
    }

    /// Turning a `width` x `height` image clockwise by `quarterTurns` (taken modulo 4).
    static func rotation(width: Int, height: Int, clockwiseQuarterTurns quarterTurns: Int) -> Move {
        switch (quarterTurns % 4 + 4) % 4 {
        case 1: Move(width: height, height: width, base: (height - 1) * width, dx: -width, dy: 1)
        case 2: Move(width: width, height: height, base: width * height - 1, dx: -1, dy: -width)
        case 3: Move(width: height, height: width, base: width - 1, dx: width, dy: -1)
        default: Move(width: width, height: height, base: 0, dx: 1, dy: width)
        }
    }

    /// Mirroring a `width` x `height` image left to right (`horizontally`) or top to bottom.
    static func mirror(width: Int, height: Int, horizontally: Bool) -> Move {
        horizontally
            ? Move(width: width, height: height, base: width - 1, dx: -1, dy: width)
            : Move(width: width, height: height, base: (height - 1) * width, dx: 1, dy: -width)
    }

    private static let tile = 32

    /// `pixels` moved as `move` says.
    static func apply(_ move: Move, to pixels: [UInt8]) -> [UInt8] {
        PixelBuffer.make(count: move.width * move.height * 4) { out in
            pixels.withUnsafeBytes { raw in
                let source = raw.baseAddress!
                let target = UnsafeMutableRawPointer(out)
                ParallelRows.forEach(move.height, bytes: pixels.count) { rows in
                    var tileY = rows.lowerBound
                    while tileY < rows.upperBound {
                        let yEnd = min(rows.upperBound, tileY + tile)
                        var tileX = 0
                        while tileX < move.width {
                            let xEnd = min(move.width, tileX + tile)
                            for y in tileY..<yEnd {
                                var from = move.base + tileX * move.dx + y * move.dy
                                var to = y * move.width + tileX
                                for _ in tileX..<xEnd {
                                    let word = source.loadUnaligned(fromByteOffset: from * 4, as: UInt32.self)
                                    target.storeBytes(of: word, toByteOffset: to * 4, as: UInt32.self)
                                    from += move.dx
                                    to += 1
                                }
                            }
                            tileX = xEnd
                        }
                        tileY = yEnd
                    }
                }
            }
        }
    }
}
