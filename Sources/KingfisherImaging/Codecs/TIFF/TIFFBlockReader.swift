// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CTiff

/// Reads a TIFF's samples strip by strip or tile by tile (libtiff decompresses each block, in
/// any compression it supports) and converts every row of a block into RGBA8 at its place.
///
/// A block of a planar file is read once per plane the converter uses; each plane has its own
/// buffer, so a pixel's samples are all at hand when its row is converted.
struct TIFFBlockReader {
    let tiff: OpaquePointer
    let width: Int
    let height: Int
    /// The TIFF sample planes to read, one buffer each: `[0]` for contiguous samples.
    let planes: [UInt16]
    var converter: TIFFRowConverter

    /// The size of a block: a tile, or a strip of `rowsPerStrip` full-width rows.
    struct BlockSize {
        var width: Int
        var height: Int
        var tiled: Bool
    }

    /// Contiguous strips larger than this are read a row at a time (libtiff decodes them
    /// incrementally), so a single-strip image is never held twice.
    private static let maxStripBytes = 16 << 20

    /// The block size of the file. Tiles of more than `maxPixelCount` pixels are refused as
    /// corrupted: a tiny image may not ask for a huge tile buffer.
    static func blockSize(_ tiff: OpaquePointer, width: Int, height: Int, maxPixelCount: Int) throws -> BlockSize {
        guard TIFFIsTiled(tiff) != 0 else {
            var rowsPerStrip: UInt32 = 0
            let rows = kf_tiff_get_u32(tiff, UInt32(TIFFTAG_ROWSPERSTRIP), &rowsPerStrip) != 0 ? Int(rowsPerStrip) : height
            return BlockSize(width: width, height: min(max(rows, 1), height), tiled: false)
        }
        var tileWidth: UInt32 = 0
        var tileHeight: UInt32 = 0
        guard kf_tiff_get_u32(tiff, UInt32(TIFFTAG_TILEWIDTH), &tileWidth) != 0,
            kf_tiff_get_u32(tiff, UInt32(TIFFTAG_TILELENGTH), &tileHeight) != 0,
            tileWidth > 0, tileHeight > 0
        else {
            throw ImageCodingError.corruptedData(format: .TIFF, detail: "the tile size is missing or zero")
        }
        guard PixelArea.total(width: Int(tileWidth), height: Int(tileHeight), frames: 1).map({ $0 <= maxPixelCount }) == true else {
            throw ImageCodingError.corruptedData(format: .TIFF, detail: "a tile of \(tileWidth)x\(tileHeight) is over the pixel limit")
        }
        return BlockSize(width: Int(tileWidth), height: Int(tileHeight), tiled: true)
    }

    /// Decodes every block into `out` (`width * height` RGBA pixels). `failure` makes the error
    /// thrown when libtiff cannot decode a block.
    mutating func read(
        _ block: BlockSize, into out: UnsafeMutablePointer<UInt8>,
        failure: () -> ImageCodingError
    ) throws {
        guard
            let rowBytes = TIFFRowConverter.rowBytes(
                width: block.width, samplesPerPixel: converter.samplesPerPixel,
                bitsPerSample: converter.bitsPerSample)
        else {
            throw ImageCodingError.corruptedData(format: .TIFF, detail: "the row size overflows")
        }
        var block = block
        let byRow = !block.tiled && planes.count == 1 && rowBytes > Self.maxStripBytes / block.height
        if byRow {
            // libtiff writes a whole scanline of its own reckoning: it must fit in the row.
            guard TIFFScanlineSize64(tiff) <= UInt64(rowBytes) else {
                throw ImageCodingError.corruptedData(format: .TIFF, detail: "the scanline size does not match the image")
            }
            block.height = 1
        }
        converter.reserve(width: block.width)
        let (blockBytes, overflow) = rowBytes.multipliedReportingOverflow(by: block.height)
        let (totalBytes, overflow2) = blockBytes.multipliedReportingOverflow(by: planes.count)
        guard !overflow, !overflow2 else {
            throw ImageCodingError.corruptedData(format: .TIFF, detail: "the strip or tile size overflows")
        }
        try ScratchMemory.withBytes(count: totalBytes) { buffer in
            var rows = [UnsafeRawPointer](repeating: UnsafeRawPointer(buffer), count: planes.count)
            for y in stride(from: 0, to: height, by: block.height) {
                let rowCount = min(block.height, height - y)
                for x in stride(from: 0, to: width, by: block.width) {
                    for (index, plane) in planes.enumerated() {
                        let destination = buffer + index * blockBytes
                        // A strip ends at the image's last row; a tile is always whole.
                        let size = block.tiled ? blockBytes : rowCount * rowBytes
                        let decoded: Int64
                        if byRow {
                            decoded = TIFFReadScanline(tiff, destination, UInt32(y), plane) == 1 ? Int64(size) : -1
                        } else if block.tiled {
                            let tile = TIFFComputeTile(tiff, UInt32(x), UInt32(y), 0, plane)
                            guard tile < TIFFNumberOfTiles(tiff) else { throw failure() }
                            decoded = TIFFReadEncodedTile(tiff, tile, destination, Int64(size))
                        } else {
                            let strip = TIFFComputeStrip(tiff, UInt32(y), plane)
                            guard strip < TIFFNumberOfStrips(tiff) else { throw failure() }
                            decoded = TIFFReadEncodedStrip(tiff, strip, destination, Int64(size))
                        }
                        guard decoded == Int64(size) else { throw failure() }
                    }
                    let count = min(block.width, width - x)
                    for row in 0..<rowCount {
                        for index in planes.indices {
                            rows[index] = UnsafeRawPointer(buffer + index * blockBytes + row * rowBytes)
                        }
                        rows.withUnsafeBufferPointer { rows in
                            converter.convert(rows: rows, count: count, into: out + ((y + row) * width + x) * 4)
                        }
                    }
                }
            }
        }
    }
}
