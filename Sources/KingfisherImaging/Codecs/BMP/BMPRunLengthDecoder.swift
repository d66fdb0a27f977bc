// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// BI_RLE8 and BI_RLE4 pixel data: runs of one index (two alternating ones in RLE4), absolute
/// runs padded to 16 bits, and the escapes end of line, end of bitmap and delta (skip right and
/// up). Pixels the data never reaches stay transparent, as browsers show them; runs past the
/// end of a row are cut there, as Pillow does.
enum BMPRunLengthDecoder {
    /// Decodes `data` (the pixel data to the end of the file) through `palette` (256 RGBA
    /// entries). Data that ends before the last row, without an end-of-bitmap escape, is
    /// truncated: a first pass over the codes, writing nothing, finds that out before the canvas
    /// (which a few bytes of codes can declare large) is allocated.
    static func decode(
        _ data: UnsafeRawBufferPointer, header: BMPHeader, palette: [UInt8],
        format: ImageFileFormat
    ) throws -> DecodedImage {
        let width = header.width
        let height = header.height
        let fourBit = header.compression == .rle4
        guard walk(data, fourBit: fourBit, width: width, height: height, put: { _, _, _ in }) else {
            throw ImageCodingError.truncatedData(format: format)
        }
        var undefined = width * height
        let pixels = PixelBuffer.make(count: width * height * 4) { out in
            out.initialize(repeating: 0, count: width * height * 4)
            palette.withUnsafeBytes { palette in
                _ = walk(data, fourBit: fourBit, width: width, height: height) { x, y, index in
                    let row = header.isTopDown ? y : height - 1 - y
                    UnsafeMutableRawPointer(out + (row * width + x) * 4)
                        .storeBytes(of: palette.loadUnaligned(fromByteOffset: Int(index) * 4, as: UInt32.self), as: UInt32.self)
                    undefined -= 1
                }
            }
        }
        return DecodedImage(width: width, height: height, frames: [ImageFrame(pixels: pixels)], hasAlpha: undefined > 0)
    }

    /// Runs the codes, calling `put(x, y, index)` once for each pixel they set within the
    /// bitmap (`y` counts rows in stored order). Returns whether the bitmap is complete: an
    /// end-of-bitmap escape, or every row reached before the data ends.
    private static func walk(
        _ data: UnsafeRawBufferPointer, fourBit: Bool, width: Int, height: Int,
        put: (Int, Int, UInt8) -> Void
    ) -> Bool {
        var x = 0
        var y = 0
        var position = 0
        /// The index of the `i`th pixel of a run whose byte (RLE4: two nibbles) is `byte`.
        func index(_ byte: UInt8, _ i: Int) -> UInt8 {
            fourBit ? (i & 1 == 0 ? byte >> 4 : byte & 0x0F) : byte
        }
        while y < height, position + 2 <= data.count {
            let count = Int(data[position])
            let value = data[position + 1]
            position += 2
            if count > 0 {
                let kept = min(count, width - min(x, width))
                for i in 0..<kept { put(x + i, y, index(value, i)) }
                x += kept
                continue
            }
            switch value {
            case 0:  // end of line
                x = 0
                y += 1
            case 1:  // end of bitmap
                return true
            case 2:  // delta: right, then up (rows in stored order)
                guard position + 2 <= data.count else { return false }
                x += Int(data[position])
                y += Int(data[position + 1])
                position += 2
            default:  // absolute: `value` indices, padded to a 16-bit boundary
                let length = fourBit ? (Int(value) + 1) / 2 : Int(value)
                guard position + length <= data.count else { return false }
                let kept = min(Int(value), width - min(x, width))
                for i in 0..<kept { put(x + i, y, index(data[position + (fourBit ? i / 2 : i)], i)) }
                x += kept
                position += length + (length & 1)
            }
        }
        return y >= height || (y == height - 1 && x >= width)
    }
}
