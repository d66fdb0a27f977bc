// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The colour space a decoder found the pixels in, as the file declared it. ``ImageDecoder``
/// converts every space but `sRGB` to sRGB (or keeps it, when the options say so).
enum SourceColorSpace: Equatable, Sendable {
    /// sRGB, or nothing declared (which browsers and ImageIO read as sRGB).
    case sRGB
    /// An embedded ICC profile (JPEG APP2, PNG iCCP, WebP ICCP, HEIF/AVIF `colr` `prof`/`rICC`,
    /// JPEG XL, TIFF tag 34675, BMP V5).
    case icc(Data)
    /// ITU-T H.273 code points (HEIF/AVIF `colr` `nclx`, PNG cICP): colour primaries and
    /// transfer characteristics. The matrix coefficients are the decoder's business (YUV to RGB).
    case cicp(primaries: Int, transfer: Int)
    /// PNG's gAMA (and optional cHRM) chunks: the file gamma (`gamma` = 1 / display exponent,
    /// as stored: 0.45455 for gamma 2.2) and CIE xy chromaticities of white, red, green, blue.
    case calibrated(gamma: Double, chromaticities: Chromaticities?)

    /// CIE 1931 xy chromaticities of an RGB space's white point and primaries.
    struct Chromaticities: Equatable, Sendable {
        var white: (x: Double, y: Double)
        var red: (x: Double, y: Double)
        var green: (x: Double, y: Double)
        var blue: (x: Double, y: Double)

        static func == (a: Chromaticities, b: Chromaticities) -> Bool {
            [a.white, a.red, a.green, a.blue].elementsEqual([b.white, b.red, b.green, b.blue]) { $0 == $1 }
        }
    }
}
