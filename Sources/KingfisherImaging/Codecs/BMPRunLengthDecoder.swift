/// BI_RLE8 and BI_RLE4 pixel data: runs of one index (two alternating ones in RLE4), absolute
/// runs padded to 16 bits, and the escapes end of line, end of bitmap and delta (skip right and
/// up). Pixels the data never reaches stay transparent, as browsers show them; runs past the
/// end of a row are cut there, as Pillow does.
enum BMPRunLengthDecoder {
    /// Decodes `data` (the pixel data to the end of the file) through `palette` (256 RGBA
    /// entries). Data that ends before the last row, without an end-of-bitmap escape, is
    /// truncated.
    static func decode(_ data: UnsafeRawBufferPointer, header: BMPHeader, palette: [UInt8],
                       format: ImageFileFormat) throws -> DecodedImage {
        let width = header.width, height = header.height
        let fourBit = header.compression == .rle4
        var undefined = width * height
        var complete = false
        let pixels = PixelBuffer.make(count: width * height * 4) { out in
            out.initialize(repeating: 0, count: width * height * 4)
            palette.withUnsafeBytes { palette in
                // (x, y): the next pixel, y counting rows in stored order.
                var x = 0, y = 0, position = 0
                func put(_ index: UInt8) {
                    guard x < width else { return }
                    let row = header.isTopDown ? y : height - 1 - y
                    UnsafeMutableRawPointer(out + (row * width + x) * 4)
                        .storeBytes(of: palette.loadUnaligned(fromByteOffset: Int(index) * 4, as: UInt32.self), as: UInt32.self)
                    undefined -= 1
                    x += 1
                }
                while y < height, position + 2 <= data.count {
                    let count = Int(data[position]), value = data[position + 1]
                    position += 2
                    if count > 0 {
                        for i in 0..<min(count, width - min(x, width)) {
                            put(fourBit ? (i & 1 == 0 ? value >> 4 : value & 0x0F) : value)
                        }
                        continue
                    }
                    switch value {
                    case 0:  // end of line
                        x = 0
                        y += 1
                    case 1:  // end of bitmap
                        complete = true
                        return
                    case 2:  // delta: right, then up (rows in stored order)
                        guard position + 2 <= data.count else { return }
                        x += Int(data[position])
                        y += Int(data[position + 1])
                        position += 2
                    default:  // absolute: `value` indices, padded to a 16-bit boundary
                        let length = fourBit ? (Int(value) + 1) / 2 : Int(value)
                        guard position + length <= data.count else { return }
                        for i in 0..<min(Int(value), width - min(x, width)) {
                            let byte = data[position + (fourBit ? i / 2 : i)]
                            put(fourBit ? (i & 1 == 0 ? byte >> 4 : byte & 0x0F) : byte)
                        }
                        position += length + (length & 1)
                    }
                }
                // Data that runs out is complete only once every row is reached or filled.
                complete = complete || y >= height || (y == height - 1 && x >= width)
            }
        }
        guard complete else { throw ImageCodingError.truncatedData(format: format) }
        return DecodedImage(width: width, height: height, frames: [ImageFrame(pixels: pixels)], hasAlpha: undefined > 0)
    }
}
