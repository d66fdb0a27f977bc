// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The DIB header of a Windows bitmap: what follows a BMP file's 14-byte file header, and what
/// a BMP entry of an ICO starts with. BITMAPCOREHEADER (12 bytes), BITMAPINFOHEADER (40), its
/// V2, V3, V4 and V5 extensions (52, 56, 108, 124) and OS/2's 64-byte header, read with every
/// offset checked against the data.
struct BMPHeader {
    enum Compression {
        /// Uncompressed: palette indices, 5-5-5 (16 bits), BGR (24) or BGRX (32).
        case none
        case rle8
        case rle4
        /// Uncompressed, channels at the bit masks of ``masks`` (BI_BITFIELDS, BI_ALPHABITFIELDS).
        case bitFields
        /// A whole JPEG or PNG file as the pixel data.
        case jpeg
        case png
    }

    /// Where each channel's bits are in a 16, 24 or 32-bit pixel; a zero mask is an absent channel.
    struct Masks {
        var red: UInt32
        var green: UInt32
        var blue: UInt32
        var alpha: UInt32
    }

    let size: Int
    let width: Int
    /// Rows, as stored (an ICO entry's header counts the AND mask's rows too).
    var height: Int
    /// Whether the first row stored is the top one (a negative height); else rows go bottom up.
    let isTopDown: Bool
    let bitsPerPixel: Int
    let compression: Compression
    /// The channel masks of 16, 24 and 32-bit pixels: the header's for bit fields, the defaults
    /// (5-5-5, or BGR(X)) otherwise, with the header's alpha mask for a V3 or later header.
    var masks: Masks
    /// The palette's offset from the start of the header, its entries (each BGR or BGRX) and the
    /// size of one.
    let paletteOffset: Int
    let paletteCount: Int
    let paletteEntrySize: Int
    /// Where the pixel data starts when nothing says otherwise: just after the palette.
    var defaultPixelOffset: Int { paletteOffset + paletteCount * paletteEntrySize }
    /// sRGB, or the ICC profile a V5 header embeds.
    let colorSpace: SourceColorSpace

    private static let profileEmbedded: UInt32 = 0x4D42_4544  // "MBED"

    /// Reads the header at the start of `dib` (which runs to the end of the data, so that an
    /// embedded profile can be found). Errors name `format`.
    init(_ dib: UnsafeRawBufferPointer, format: ImageFileFormat) throws {
        let corrupted = { (detail: String) in ImageCodingError.corruptedData(format: format, detail: detail) }
        guard let size = dib.littleEndian(UInt32.self, at: 0).map(Int.init) else { throw ImageCodingError.truncatedData(format: format) }
        guard [12, 40, 52, 56, 64, 108, 124].contains(size) else { throw corrupted("a bitmap header of \(size) bytes") }
        guard dib.count >= size else { throw ImageCodingError.truncatedData(format: format) }
        self.size = size
        let u16 = { dib.littleEndian(UInt16.self, at: $0).map(Int.init) ?? 0 }
        let u32 = { dib.littleEndian(UInt32.self, at: $0) ?? 0 }

        var compressionCode: UInt32 = 0
        var colorsUsed = 0
        if size == 12 {
            width = u16(4)
            height = u16(6)
            isTopDown = false
            bitsPerPixel = u16(10)
        } else {
            width = Int(Int32(bitPattern: u32(4)))
            let storedHeight = Int(Int32(bitPattern: u32(8)))
            height = abs(storedHeight)
            isTopDown = storedHeight < 0
            bitsPerPixel = u16(14)
            compressionCode = u32(16)
            colorsUsed = Int(u32(32))
        }
        guard width > 0, height > 0 else { throw corrupted("the header declares a size of \(width)x\(height)") }

        // Bit fields follow a 40 or 64-byte header (3 masks, or 4 with BI_ALPHABITFIELDS);
        // later headers hold them. Either way they are at bytes 40...55.
        var maskBytesAfterHeader = 0
        switch (compressionCode, size) {
        case (0, _): compression = .none
        case (1, _): compression = .rle8
        case (2, _): compression = .rle4
        case (3, 64), (4, 64): throw corrupted("OS/2 compression \(compressionCode) is not supported")
        case (3, _), (6, _):
            compression = .bitFields
            let maskCount = compressionCode == 6 ? 4 : 3
            maskBytesAfterHeader = max(0, 40 + maskCount * 4 - max(size, 40))
        case (4, _): compression = .jpeg
        case (5, _): compression = .png
        default: throw corrupted("compression \(compressionCode) is not supported")
        }
        paletteOffset = size + maskBytesAfterHeader
        guard dib.count >= paletteOffset else { throw ImageCodingError.truncatedData(format: format) }

        switch (compression, bitsPerPixel) {
        case (.none, 1), (.none, 2), (.none, 4), (.none, 8), (.none, 16), (.none, 24), (.none, 32),
            (.rle8, 8), (.rle4, 4), (.bitFields, 16), (.bitFields, 24), (.bitFields, 32), (.jpeg, _), (.png, _):
            break
        default:
            throw corrupted("\(bitsPerPixel) bits per pixel with \(compression) compression")
        }
        guard size != 12 || [1, 4, 8, 24].contains(bitsPerPixel) else {
            throw corrupted("\(bitsPerPixel) bits per pixel in a core header")
        }

        // Palette images have `colorsUsed` entries (0: all); deeper ones may carry an optional
        // palette of `colorsUsed` entries, skipped.
        paletteEntrySize = size == 12 ? 3 : 4
        let maxColors = bitsPerPixel <= 8 ? 1 << bitsPerPixel : 0
        guard colorsUsed <= 1 << 16 else { throw corrupted("\(colorsUsed) palette colours") }
        paletteCount = colorsUsed == 0 ? maxColors : colorsUsed

        // An uncompressed pixel's alpha is the spare bit (16 bits) or byte (32 bits), only when a
        // V3 or later header's alpha mask names it.
        let headerAlpha = size >= 56 ? u32(52) : 0
        switch (compression, bitsPerPixel) {
        case (.bitFields, _):
            let pixelBits: UInt32 = bitsPerPixel == 32 ? .max : (1 << bitsPerPixel) - 1
            let colours = [u32(40), u32(44), u32(48)]
            guard colours.allSatisfy({ $0 & ~pixelBits == 0 }) else {
                throw corrupted("a colour mask wider than a \(bitsPerPixel)-bit pixel")
            }
            let alpha = compressionCode == 6 || size >= 56 ? u32(52) : 0
            masks = Masks(red: colours[0], green: colours[1], blue: colours[2], alpha: alpha & ~pixelBits == 0 ? alpha : 0)
        case (_, 16):
            masks = Masks(red: 0x7C00, green: 0x03E0, blue: 0x001F, alpha: headerAlpha & 0x8000)
        case (_, 32):
            masks = Masks(red: 0xFF_0000, green: 0xFF00, blue: 0xFF, alpha: headerAlpha & 0xFF00_0000)
        default:
            masks = Masks(red: 0xFF_0000, green: 0xFF00, blue: 0xFF, alpha: 0)
        }

        var colorSpace = SourceColorSpace.sRGB
        if size >= 124, u32(56) == Self.profileEmbedded {
            let offset = Int(u32(112))
            let length = Int(u32(116))
            if length > 0, offset >= size, offset <= dib.count, length <= dib.count - offset {
                colorSpace = .icc(Data(dib[offset..<offset + length]))
            }
        }
        self.colorSpace = colorSpace
    }

    /// The palette as RGBA, 256 entries (opaque black past the file's own): an index the palette
    /// does not cover shows black. `nil` for images without one.
    func palette(_ dib: UnsafeRawBufferPointer, format: ImageFileFormat) throws -> [UInt8]? {
        guard bitsPerPixel <= 8, compression != .jpeg, compression != .png else { return nil }
        let used = min(paletteCount, 1 << bitsPerPixel)
        guard paletteOffset + used * paletteEntrySize <= dib.count else { throw ImageCodingError.truncatedData(format: format) }
        var table = [UInt8](repeating: 0, count: 256 * 4)
        for index in 0..<256 {
            table[index * 4 + 3] = 255
            guard index < used else { continue }
            let entry = paletteOffset + index * paletteEntrySize
            table[index * 4] = dib[entry + 2]
            table[index * 4 + 1] = dib[entry + 1]
            table[index * 4 + 2] = dib[entry]
        }
        return table
    }
}
