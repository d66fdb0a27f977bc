// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// ICO (Windows icon, ICONDIR type 1): decodes one entry of the directory, the one with the
/// most pixels (ties: the highest bit depth), or for a thumbnail the smallest one that still
/// covers it. An entry is a PNG file, or a BMP DIB without file header whose height counts
/// twice its rows: the colour (XOR) bitmap, then a 1-bit AND mask marking transparent pixels,
/// used unless the bitmap carries alpha of its own (32 bits per pixel, not all zero).
enum ICODecoder {
    private static let format = ImageFileFormat.ICO
    private static let directoryHeaderSize = 6
    private static let entrySize = 16
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A directory entry: the size and depth it declares (the image itself may differ) and
    /// where its data is.
    struct Entry {
        var width: Int
        var height: Int
        var bitDepth: Int
        var offset: Int
        var size: Int

        var pixelCount: Int { width * height }
    }

    private static func corrupted(_ detail: String) -> ImageCodingError {
        .corruptedData(format: format, detail: detail)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions, target: DecodingTarget?) throws -> DecodedImage {
        let entries = try directory(bytes)
        guard let largest = entries.max(by: { ($0.pixelCount, $0.bitDepth) < ($1.pixelCount, $1.bitDepth) }) else {
            throw corrupted("the directory lists no images")
        }
        var chosen = largest
        if let size = target?.fit(width: largest.width, height: largest.height) {
            chosen =
                entries.filter { $0.width >= size.width && $0.height >= size.height }
                .min { ($0.pixelCount, -$0.bitDepth) < ($1.pixelCount, -$1.bitDepth) } ?? largest
        }
        let data = UnsafeRawBufferPointer(rebasing: bytes[chosen.offset..<chosen.offset + chosen.size])
        var image: DecodedImage
        if data.count >= pngSignature.count, data.prefix(pngSignature.count).elementsEqual(pngSignature) {
            image = try EmbeddedImage.decode(data, as: .PNG, in: format, options: options, target: nil)
        } else {
            image = try decodeBitmap(data, limits: DecodingLimits(options, format: format))
        }
        // Fitted again to the entry decoded: its header may not have told its size.
        if let size = target?.fit(width: image.width, height: image.height) {
            image.resample(to: size.width, size.height)
        }
        return image
    }

    /// The directory's entries, each checked to lie within the data after the directory.
    static func directory(_ bytes: UnsafeRawBufferPointer) throws -> [Entry] {
        guard let reserved = bytes.littleEndian(UInt16.self, at: 0), let type = bytes.littleEndian(UInt16.self, at: 2),
            let count = bytes.littleEndian(UInt16.self, at: 4)
        else { throw ImageCodingError.truncatedData(format: format) }
        guard reserved == 0, type == 1 else { throw corrupted("the directory is not an icon directory (type \(type))") }
        guard count > 0 else { throw corrupted("the directory lists no images") }
        let directoryEnd = directoryHeaderSize + Int(count) * entrySize
        guard bytes.count >= directoryEnd else { throw ImageCodingError.truncatedData(format: format) }
        return try (0..<Int(count)).map { index in
            let at = directoryHeaderSize + index * entrySize
            let colorCount = Int(bytes[at + 2])
            let bitCount = Int(bytes.littleEndian(UInt16.self, at: at + 6)!)
            let size = Int(bytes.littleEndian(UInt32.self, at: at + 8)!)
            let offset = Int(bytes.littleEndian(UInt32.self, at: at + 12)!)
            guard offset >= directoryEnd, size > 0 else {
                throw corrupted("image \(index) has \(size) bytes at offset \(offset), inside the directory")
            }
            guard offset < bytes.count else { throw corrupted("image \(index) starts past the end of the file") }
            guard size <= bytes.count - offset else { throw ImageCodingError.truncatedData(format: format) }
            // A depth of 0 with a colour count is a palette's; with neither, assume full colour.
            let depth = bitCount != 0 ? bitCount : colorCount != 0 ? Int.bitWidth - (colorCount - 1).leadingZeroBitCount : 32
            return Entry(
                width: bytes[at] == 0 ? 256 : Int(bytes[at]), height: bytes[at + 1] == 0 ? 256 : Int(bytes[at + 1]),
                bitDepth: depth, offset: offset, size: size)
        }
    }

    /// A BMP entry: the DIB's colour bitmap, then its AND mask applied as transparency.
    private static func decodeBitmap(_ dib: UnsafeRawBufferPointer, limits: DecodingLimits) throws -> DecodedImage {
        var header = try BMPHeader(dib, format: format)
        guard header.compression == .none || header.compression == .bitFields else {
            throw corrupted("the icon bitmap is compressed")
        }
        guard header.height >= 2 else { throw corrupted("the icon bitmap has no room for its mask") }
        header.height /= 2
        // A 32-bit icon bitmap is BGRA whatever its header says.
        if header.bitsPerPixel == 32 && header.compression == .none { header.masks.alpha = 0xFF00_0000 }
        let pixelOffset = header.defaultPixelOffset
        var image = try BMPDecoder.decodeUncompressed(dib, header: header, pixelOffset: pixelOffset, limits: limits)
        var pixels = image.frames[0].pixels
        let width = header.width
        let height = header.height
        let hasOwnAlpha = image.hasAlpha && stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] != 0 }
        let maskOffset = pixelOffset + BMPDecoder.rowStride(width: width, bitsPerPixel: header.bitsPerPixel) * height
        let maskStride = BMPDecoder.rowStride(width: width, bitsPerPixel: 1)
        if !hasOwnAlpha {
            guard maskOffset <= dib.count, dib.count - maskOffset >= maskStride * (height - 1) + (width + 7) / 8 else {
                throw ImageCodingError.truncatedData(format: format)
            }
            pixels.withUnsafeMutableBufferPointer { out in
                for row in 0..<height {
                    let mask = maskOffset + (header.isTopDown ? row : height - 1 - row) * maskStride
                    for x in 0..<width {
                        out[(row * width + x) * 4 + 3] = dib[mask + (x >> 3)] & (0x80 >> (x & 7)) != 0 ? 0 : 255
                    }
                }
            }
        }
        image.frames = [ImageFrame(pixels: pixels)]
        image.hasAlpha = true
        image.colorSpace = header.colorSpace
        return image
    }
}
