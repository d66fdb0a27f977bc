// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// Windows bitmap.
    public static let BMP = ImageFileFormat(rawValue: "BMP")
}

extension ImageFormatDescriptor {
    /// Windows bitmaps, read in Swift: "BM", then a DIB header size some version of
    /// BITMAPINFOHEADER uses.
    static let bmp = ImageFormatDescriptor(
        format: .BMP, name: "BMP", mimeType: "image/bmp", fileExtensions: ["bmp"], supportsAlpha: true,
        supportsAnimation: false,
        detect: { b in
            b.count >= 18 && b[0] == 0x42 && b[1] == 0x4D && b[16] == 0 && b[17] == 0
                && [12, 40, 52, 56, 64, 108, 124].contains(Int(b[14]) | Int(b[15]) << 8)
        },
        decoder: .native { data, options, target in try data.withUnsafeBytes { try BMPDecoder.decode($0, options: options, target: target) }
        },
        encoding: nil)
}
