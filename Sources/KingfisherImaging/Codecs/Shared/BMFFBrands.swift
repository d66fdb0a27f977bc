// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The brands of an ISO-BMFF file's `ftyp` box, which tell HEIC, AVIF and other HEIF files apart.
enum BMFFBrands {
    /// The major brand and the compatible ones, read from the first bytes of a file; `nil` when
    /// it does not start with an `ftyp` box.
    static func of(_ head: [UInt8]) -> (major: String, compatible: [String])? {
        guard head.count >= 12, head[4...7] == [0x66, 0x74, 0x79, 0x70] else { return nil }
        let brand = { (at: Int) in String(decoding: head[at..<at + 4], as: UTF8.self) }
        // Compatible brands follow the major brand and minor version, up to the box's end.
        let boxEnd = min(head.count, Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3]))
        return (brand(8), Swift.stride(from: 16, to: boxEnd - 3, by: 4).map(brand))
    }

    /// Whether a generic HEIF major brand (`mif1`, `msf1`) lists an AVIF brand among the
    /// compatible ones: such a file is AVIF, another is HEIC.
    static func isGeneric(_ brands: (major: String, compatible: [String])) -> Bool {
        brands.major == "mif1" || brands.major == "msf1"
    }

    static func listsAVIF(_ brands: (major: String, compatible: [String])) -> Bool {
        brands.compatible.contains("avif") || brands.compatible.contains("avis")
    }
}
