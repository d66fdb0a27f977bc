// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Undoes PNG's per-row filters (None, Sub, Up, Average, Paeth) in place, for 1 to 4 bytes per
/// pixel.
///
/// Each pixel is worked on as one vector of four 32-bit lanes (a left, b above, c above-left,
/// as the PNG specification names them): SSE2's native width, so the serial dependency along a
/// row costs a few vector instructions per pixel rather than many per byte. Loads and stores
/// move four bytes at a time: with fewer than four bytes per pixel the extra lanes predict 0,
/// which stores the following bytes back unchanged, and the next pixel is loaded before the
/// current one is stored, so **four bytes after the end of every row must be readable and
/// writable** (in a decoder's buffer they are the next row's first bytes, or slack after the
/// last row).
enum PNGRowFilter {
    private typealias Lanes = SIMD4<Int32>

    /// Whether `type` is a defined filter type (0 to 4).
    static func isValid(_ type: UInt8) -> Bool { type <= 4 }

    /// Unfilters `row` (`count` bytes) given the already unfiltered `previous` row (zeros for
    /// the first row).
    static func undo(
        _ type: UInt8, row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>,
        count: Int, bytesPerPixel: Int
    ) {
        switch type {
        case 1:
            undo(row: row, previous: previous, count: count, bytesPerPixel: bytesPerPixel) { a, _, _ in a }
        case 2:
            for i in 0..<count { row[i] &+= previous[i] }
        case 3:
            undo(row: row, previous: previous, count: count, bytesPerPixel: bytesPerPixel) { a, b, _ in (a &+ b) &>> 1 }
        case 4:
            undo(row: row, previous: previous, count: count, bytesPerPixel: bytesPerPixel, predictor: paeth)
        default:
            break
        }
    }

    /// The Paeth predictor: whichever of a, b, c is closest to a + b - c (ties to a, then b).
    @inline(__always)
    private static func paeth(_ a: Lanes, _ b: Lanes, _ c: Lanes) -> Lanes {
        let towardsA = magnitude(b &- c)
        let towardsB = magnitude(a &- c)
        let towardsC = magnitude(a &+ b &- c &- c)
        let pickA = (towardsA .<= towardsB) .& (towardsA .<= towardsC)
        let pickB = towardsB .<= towardsC
        return c.replacing(with: b, where: pickB).replacing(with: a, where: pickA)
    }

    @inline(__always)
    private static func magnitude(_ value: Lanes) -> Lanes {
        value.replacing(with: 0 &- value, where: value .< 0)
    }

    @inline(__always)
    private static func load(_ bytes: UnsafePointer<UInt8>) -> Lanes {
        Lanes(truncatingIfNeeded: UnsafeRawPointer(bytes).loadUnaligned(as: SIMD4<UInt8>.self))
    }

    /// Adds `predictor(a, b, c)` to every pixel, left to right.
    @inline(__always)
    private static func undo(
        row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int,
        bytesPerPixel: Int, predictor: (Lanes, Lanes, Lanes) -> Lanes
    ) {
        // Lanes past the pixel's bytes predict 0, so the bytes stored there are the ones loaded.
        let inPixel = Lanes(0, 1, 2, 3) .< Lanes(repeating: Int32(bytesPerPixel))
        var left = Lanes(repeating: 0)
        var upperLeft = Lanes(repeating: 0)
        var raw = load(row)
        var offset = 0
        while offset < count {
            // The next pixel's bytes are loaded before this one is stored: a load overlapping a
            // store just made (as four-byte words of three-byte pixels do) waits for it.
            let nextRaw = load(row + offset + bytesPerPixel)
            let above = load(previous + offset)
            let prediction = Lanes(repeating: 0).replacing(with: predictor(left, above, upperLeft), where: inPixel)
            let value = (raw &+ prediction) & 0xFF
            UnsafeMutableRawPointer(row + offset).storeBytes(
                of: SIMD4<UInt8>(truncatingIfNeeded: value),
                as: SIMD4<UInt8>.self)
            left = value
            upperLeft = above
            raw = nextRaw
            offset += bytesPerPixel
        }
    }
}
