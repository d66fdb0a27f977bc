// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// BMP (Windows bitmap): every DIB header from BITMAPCOREHEADER to V5, 1/2/4/8-bit palettes,
/// 16 and 32-bit pixels with default or bit-field masks of any width, 24-bit BGR, RLE8 and
/// RLE4, bottom-up and top-down rows; BI_JPEG and BI_PNG pixel data go to those codecs. A V5
/// header's embedded ICC profile is passed on, colours untouched.
enum BMPDecoder {
    private static let format = ImageFileFormat.BMP
    /// "BM", file size, two reserved words, the pixel data's offset.
    private static let fileHeaderSize = 14

    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions, target: DecodingTarget?) throws -> DecodedImage {
        guard bytes.count >= fileHeaderSize + 4 else { throw ImageCodingError.truncatedData(format: format) }
        guard bytes[0] == 0x42, bytes[1] == 0x4D else {
            throw ImageCodingError.corruptedData(format: format, detail: "the file does not start with \"BM\"")
        }
        let dib = UnsafeRawBufferPointer(rebasing: bytes[fileHeaderSize...])
        let header = try BMPHeader(dib, format: format)
        // The file header's offset counts from the start of the file; 0 means "after the palette".
        let declaredOffset = Int(bytes.littleEndian(UInt32.self, at: 10) ?? 0)
        let pixelOffset = declaredOffset == 0 ? header.defaultPixelOffset : declaredOffset - fileHeaderSize
        guard pixelOffset >= header.paletteOffset else {
            throw ImageCodingError.corruptedData(format: format, detail: "the pixel data starts inside the header")
        }
        guard pixelOffset <= dib.count else { throw ImageCodingError.truncatedData(format: format) }
        var image: DecodedImage
        switch header.compression {
        case .jpeg, .png:
            return try EmbeddedImage.decode(
                UnsafeRawBufferPointer(rebasing: dib[pixelOffset...]),
                as: header.compression == .png ? .PNG : .JPEG, in: format,
                options: options, target: target)
        case .rle4, .rle8:
            let limits = DecodingLimits(options, format: format)
            try limits.check(width: header.width, height: header.height)
            image = try BMPRunLengthDecoder.decode(
                UnsafeRawBufferPointer(rebasing: dib[pixelOffset...]), header: header,
                palette: header.palette(dib, format: format) ?? [], format: format)
        case .none, .bitFields:
            image = try decodeUncompressed(
                dib, header: header, pixelOffset: pixelOffset,
                limits: DecodingLimits(options, format: format))
        }
        image.colorSpace = header.colorSpace
        if let size = target?.fit(width: image.width, height: image.height) {
            image.resample(to: size.width, size.height)
        }
        return image
    }

    /// The bytes of one stored row: whole 32-bit words.
    static func rowStride(width: Int, bitsPerPixel: Int) -> Int {
        (width * bitsPerPixel + 31) / 32 * 4
    }

    /// Decodes uncompressed (or bit-field) pixels stored at `pixelOffset` of `dib`; an ICO entry's
    /// bitmap comes here too, with `header.height` already halved. The last row's padding may be
    /// missing, as some writers leave it out.
    static func decodeUncompressed(
        _ dib: UnsafeRawBufferPointer, header: BMPHeader, pixelOffset: Int,
        limits: DecodingLimits
    ) throws -> DecodedImage {
        let width = header.width
        let height = header.height
        let bits = header.bitsPerPixel
        try limits.check(width: width, height: height)
        let stride = rowStride(width: width, bitsPerPixel: bits)
        let needed = stride * (height - 1) + (width * bits + 7) / 8
        guard pixelOffset <= dib.count, dib.count - pixelOffset >= needed else {
            throw ImageCodingError.truncatedData(format: limits.format)
        }
        let palette = try header.palette(dib, format: limits.format)
        let masked = try palette == nil ? MaskedPixels(header.masks, bitsPerPixel: bits, format: limits.format) : nil
        let source = dib.baseAddress! + pixelOffset
        let pixels = PixelBuffer.make(count: width * height * 4) { out in
            for row in 0..<height {
                let src = source + (header.isTopDown ? row : height - 1 - row) * stride
                let dst = UnsafeMutableRawPointer(out + row * width * 4)
                if let palette {
                    palette.withUnsafeBytes { paletteRow(src, bits: bits, width: width, palette: $0, into: dst) }
                } else if let masked {
                    masked.row(src, width: width, into: dst)
                }
            }
        }
        return DecodedImage(
            width: width, height: height, frames: [ImageFrame(pixels: pixels)],
            hasAlpha: palette == nil && header.masks.alpha != 0)
    }

    /// Indices of 1, 2, 4 or 8 bits, packed from each byte's high bits, through a 256-entry RGBA palette.
    private static func paletteRow(
        _ src: UnsafeRawPointer, bits: Int, width: Int, palette: UnsafeRawBufferPointer,
        into dst: UnsafeMutableRawPointer
    ) {
        let bytes = src.assumingMemoryBound(to: UInt8.self)
        let indexMask = (1 << bits) - 1
        for x in 0..<width {
            let bit = x * bits
            let index = bits == 8 ? Int(bytes[x]) : Int(bytes[bit >> 3]) >> (8 - bits - (bit & 7)) & indexMask
            dst.storeBytes(
                of: palette.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self),
                toByteOffset: x * 4, as: UInt32.self)
        }
    }

    /// Pixels of 16, 24 or 32 bits (little-endian) whose channels sit at bit masks, each scaled
    /// to 8 bits by rounding (`v * 255 / max`), through one lookup table per channel. Masks wider
    /// than 16 bits are first cut to their top 16 bits.
    struct MaskedPixels {
        let bytesPerPixel: Int
        let shifts: SIMD4<UInt32>
        let maxValues: SIMD4<UInt32>
        /// Where each channel's table starts in `tables`.
        let offsets: SIMD4<UInt32>
        let tables: [UInt8]
        /// The byte holding each colour channel, and alpha's (`nil`: opaque), when every mask
        /// is one whole byte (BGR, BGRX, BGRA: most files), read without the tables.
        let bytes: (red: Int, green: Int, blue: Int, alpha: Int?)?

        init(_ masks: BMPHeader.Masks, bitsPerPixel: Int, format: ImageFileFormat) throws {
            bytesPerPixel = bitsPerPixel / 8
            var shifts = SIMD4<UInt32>()
            var maxValues = SIMD4<UInt32>()
            var offsets = SIMD4<UInt32>()
            var tables: [UInt8] = []
            for (channel, mask) in [masks.red, masks.green, masks.blue, masks.alpha].enumerated() {
                offsets[channel] = UInt32(tables.count)
                guard mask != 0 else {
                    // An absent channel reads as 0 (black), or opaque for alpha.
                    tables.append(channel == 3 ? 255 : 0)
                    continue
                }
                let shift = mask.trailingZeroBitCount
                let width = 32 - mask.leadingZeroBitCount - shift
                guard mask.nonzeroBitCount == width else {
                    throw ImageCodingError.corruptedData(
                        format: format, detail: "the bit mask 0x\(String(mask, radix: 16)) is not contiguous")
                }
                let kept = min(width, 16)
                let maxValue = (1 << kept) - 1
                shifts[channel] = UInt32(shift + width - kept)
                maxValues[channel] = UInt32(maxValue)
                tables += (0...maxValue).map { UInt8(($0 * 255 + maxValue / 2) / maxValue) }
            }
            self.shifts = shifts
            self.maxValues = maxValues
            self.offsets = offsets
            self.tables = tables
            let byteOf = { (mask: UInt32) -> Int? in
                (0..<bitsPerPixel / 8).first { mask == 0xFF << ($0 * 8) }
            }
            if let red = byteOf(masks.red), let green = byteOf(masks.green), let blue = byteOf(masks.blue),
                masks.alpha == 0 || byteOf(masks.alpha) != nil
            {
                bytes = (red, green, blue, byteOf(masks.alpha))
            } else {
                bytes = nil
            }
        }

        func row(_ src: UnsafeRawPointer, width: Int, into dst: UnsafeMutableRawPointer) {
            let bytes = src.assumingMemoryBound(to: UInt8.self)
            let out = dst.assumingMemoryBound(to: UInt8.self)
            if let (red, green, blue, alpha) = self.bytes {
                for x in 0..<width {
                    let p = bytes + x * bytesPerPixel
                    let o = out + x * 4
                    o[0] = p[red]
                    o[1] = p[green]
                    o[2] = p[blue]
                    o[3] = alpha.map { p[$0] } ?? 255
                }
                return
            }
            tables.withUnsafeBufferPointer { tables in
                let table = tables.baseAddress!
                for x in 0..<width {
                    let p = bytes + x * bytesPerPixel
                    var pixel = UInt32(p[0]) | UInt32(p[1]) << 8
                    if bytesPerPixel >= 3 { pixel |= UInt32(p[2]) << 16 }
                    if bytesPerPixel == 4 { pixel |= UInt32(p[3]) << 24 }
                    let index = (SIMD4(repeating: pixel) &>> shifts) & maxValues &+ offsets
                    let o = out + x * 4
                    o[0] = table[Int(index[0])]
                    o[1] = table[Int(index[1])]
                    o[2] = table[Int(index[2])]
                    o[3] = table[Int(index[3])]
                }
            }
        }
    }
}
