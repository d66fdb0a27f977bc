// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// The PNG chunk types this library reads, as big-endian 32-bit words of their four letters.
/// A critical chunk's type starts with an upper-case letter (bit 5 of its first byte clear).
enum PNGChunkType {
    static let header: UInt32 = 0x4948_4452  // IHDR
    static let palette: UInt32 = 0x504C_5445  // PLTE
    static let imageData: UInt32 = 0x4944_4154  // IDAT
    static let end: UInt32 = 0x4945_4E44  // IEND
    static let transparency: UInt32 = 0x7452_4E53  // tRNS
    static let exif: UInt32 = 0x6558_4966  // eXIf
    static let cicp: UInt32 = 0x6349_4350  // cICP
    static let iccp: UInt32 = 0x6943_4350  // iCCP
    static let srgb: UInt32 = 0x7352_4742  // sRGB
    static let gamma: UInt32 = 0x6741_4D41  // gAMA
    static let chromaticities: UInt32 = 0x6348_524D  // cHRM

    static func isCritical(_ type: UInt32) -> Bool { type & 0x2000_0000 == 0 }
}
