// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Shrinks an image by an integer factor while its rows stream in, averaging each factor x
/// factor block into RGBA8 (alpha-weighted, so transparent pixels lend no colour; edge blocks
/// average the pixels they have). Rows are RGBA8, or for an opaque image also grey or RGB
/// bytes as a decoder has them, which saves expanding every row first. A decoder feeds it row by row, so a large image is never
/// held at full size; a Lanczos pass from the reduced image (kept at least twice the target)
/// then gives the thumbnail, as Pillow's `thumbnail` does with its default `reducing_gap`.
struct BoxReducer {
    let width: Int
    let height: Int
    let factor: Int
    let outputWidth: Int
    let outputHeight: Int
    private let hasAlpha: Bool
    /// Bytes per pixel of the rows added: 4 (RGBA), or for opaque images 1 (grey) or 3 (RGB).
    private let rowChannels: Int
    /// With alpha, per output column and channel: sums of the current block row, colour
    /// premultiplied.
    private var sums: [UInt32]
    /// Without alpha, per byte of a source row: sums down the current block row (at most 255 rows of
    /// 255, so 16 bits hold them, and the adding vectorises along the row).
    private var columnSums: [UInt16]
    private var rowsInBlock = 0
    private var outputRow = 0
    private(set) var pixels: [UInt8]

    /// The factor for shrinking `width` x `height` towards `target`: the largest that keeps the
    /// result at least twice the target on both sides (at most 255, so 32-bit sums cannot
    /// overflow); 1 when no reduction is worth it.
    static func factor(width: Int, height: Int, target: (width: Int, height: Int)) -> Int {
        let ratio = min(width / max(1, 2 * target.width), height / max(1, 2 * target.height))
        return min(255, max(1, ratio))
    }

    /// A reducer for rows of `rowChannels` bytes per pixel: 4 (RGBA8, the default), or when
    /// `hasAlpha` is false also 1 (grey) or 3 (RGB).
    init(width: Int, height: Int, factor: Int, hasAlpha: Bool, rowChannels: Int = 4) {
        precondition(factor >= 1 && factor <= 255)
        precondition(rowChannels == 4 || (!hasAlpha && (rowChannels == 1 || rowChannels == 3)))
        self.rowChannels = rowChannels
        self.width = width
        self.height = height
        self.factor = factor
        self.hasAlpha = hasAlpha
        outputWidth = (width + factor - 1) / factor
        outputHeight = (height + factor - 1) / factor
        sums = [UInt32](repeating: 0, count: hasAlpha ? outputWidth * 4 : 0)
        columnSums = [UInt16](repeating: 0, count: hasAlpha ? 0 : width * rowChannels)
        pixels = [UInt8](repeating: 0, count: outputWidth * outputHeight * 4)
    }

    /// Adds the next source row (`width` pixels of `rowChannels` bytes).
    mutating func add(row: UnsafePointer<UInt8>) {
        let factor = self.factor
        let width = self.width
        if hasAlpha {
            sums.withUnsafeMutableBufferPointer { sums in
                Self.accumulate(row: row, width: width, factor: factor, into: sums.baseAddress!)
            }
        } else {
            columnSums.withUnsafeMutableBufferPointer { columns in
                for j in 0..<columns.count { columns[j] &+= UInt16(row[j]) }
            }
        }
        rowsInBlock += 1
        let sourceRow = outputRow * factor + rowsInBlock
        if rowsInBlock == factor || sourceRow == height { emitRow() }
    }

    /// Sums each block of `factor` pixels of `row` into `sums`, colour times alpha.
    private static func accumulate(
        row: UnsafePointer<UInt8>, width: Int, factor: Int,
        into sums: UnsafeMutablePointer<UInt32>
    ) {
        var start = 0
        var sum = sums
        while start < width {
            let end = min(width, start + factor)
            var r: UInt32 = 0
            var g: UInt32 = 0
            var b: UInt32 = 0
            var a: UInt32 = 0
            var pixel = row + start * 4
            for _ in start..<end {
                let alpha = UInt32(pixel[3])
                r &+= UInt32(pixel[0]) &* alpha
                g &+= UInt32(pixel[1]) &* alpha
                b &+= UInt32(pixel[2]) &* alpha
                a &+= alpha
                pixel += 4
            }
            sum[0] &+= r
            sum[1] &+= g
            sum[2] &+= b
            sum[3] &+= a
            sum += 4
            start = end
        }
    }

    private mutating func emitRow() {
        if hasAlpha { emitWeightedRow() } else { emitOpaqueRow() }
        rowsInBlock = 0
        outputRow += 1
    }

    /// Averages the column sums of an opaque image's block row.
    private mutating func emitOpaqueRow() {
        let factor = self.factor
        let width = self.width
        let rows = UInt32(rowsInBlock)
        let channels = rowChannels
        let base = outputRow * outputWidth * 4
        columnSums.withUnsafeMutableBufferPointer { columns in
            pixels.withUnsafeMutableBufferPointer { out in
                for block in 0..<outputWidth {
                    let start = block * factor
                    let end = min(width, start + factor)
                    let count = UInt32(end - start) * rows
                    var total = SIMD4<UInt32>(repeating: 0)
                    for x in start..<end {
                        let j = x * channels
                        switch channels {
                        case 1: total &+= SIMD4<UInt32>(repeating: UInt32(columns[j]))
                        case 3: total &+= SIMD4<UInt32>(UInt32(columns[j]), UInt32(columns[j + 1]), UInt32(columns[j + 2]), 0)
                        default:
                            total &+= SIMD4<UInt32>(
                                UInt32(columns[j]), UInt32(columns[j + 1]), UInt32(columns[j + 2]),
                                UInt32(columns[j + 3]))
                        }
                    }
                    let average = (total &+ count / 2) / count
                    let o = base + block * 4
                    out[o] = UInt8(truncatingIfNeeded: average[0])
                    out[o + 1] = UInt8(truncatingIfNeeded: average[1])
                    out[o + 2] = UInt8(truncatingIfNeeded: average[2])
                    out[o + 3] = channels == 4 ? UInt8(truncatingIfNeeded: average[3]) : 255
                }
                for j in 0..<columns.count { columns[j] = 0 }
            }
        }
    }

    /// Turns the premultiplied block sums of an image with alpha into straight-alpha pixels.
    private mutating func emitWeightedRow() {
        let factor = self.factor
        let width = self.width
        let rows = UInt32(rowsInBlock)
        let base = outputRow * outputWidth * 4
        sums.withUnsafeMutableBufferPointer { sums in
            pixels.withUnsafeMutableBufferPointer { out in
                for block in 0..<outputWidth {
                    let columns = UInt32(min(width, (block + 1) * factor) - block * factor)
                    let count = columns * rows
                    let sum = block * 4
                    let o = base + block * 4
                    let alphaSum = sums[sum + 3]
                    let half = alphaSum / 2
                    for c in 0..<3 {
                        out[o + c] = alphaSum == 0 ? 0 : UInt8(min(255, (sums[sum + c] + half) / alphaSum))
                    }
                    out[o + 3] = UInt8(min(255, (alphaSum + count / 2) / count))
                    sums[sum] = 0
                    sums[sum + 1] = 0
                    sums[sum + 2] = 0
                    sums[sum + 3] = 0
                }
            }
        }
    }
}
