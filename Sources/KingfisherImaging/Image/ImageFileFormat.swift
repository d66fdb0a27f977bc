// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The format of an encoded image, recognised from its leading "magic" bytes: every format this
/// library reads or writes.
///
/// Kingfisher's ``ImageFormat`` has only `unknown`, `PNG`, `JPEG` and `GIF`, and code written for
/// it switches over those four; this type names the rest (WebP, HEIC, AVIF, JPEG XL, TIFF, BMP,
/// ICO) so that decoders, encoders and errors can say which format they mean.
/// ``ImageFormat/init(_:)`` maps a file format onto Kingfisher's four cases.
public enum ImageFileFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The bytes are not recognised as an image.
    case unknown
    /// PNG, including animated PNG (APNG).
    case PNG
    /// JPEG (JFIF or EXIF), baseline or progressive.
    case JPEG
    /// GIF, still or animated.
    case GIF
    /// WebP: lossy, lossless, animated.
    case WebP
    /// HEIF with HEVC-coded images (HEIC): what iPhones take photos in.
    case HEIC
    /// AVIF: HEIF with AV1-coded images.
    case AVIF
    /// JPEG XL, as a bare codestream or in its ISO-BMFF container.
    case JXL
    /// TIFF, little- or big-endian.
    case TIFF
    /// Windows bitmap.
    case BMP
    /// Windows icon: a directory of BMP or PNG images.
    case ICO

    /// Whether this library decodes the format.
    public var isDecodable: Bool { self != .unknown }

    /// Whether this library encodes the format (``KingfisherImage/encoded(as:compressionQuality:lossless:)``).
    public var isEncodable: Bool {
        switch self {
        case .PNG, .JPEG, .GIF, .WebP, .AVIF: return true
        case .unknown, .HEIC, .JXL, .TIFF, .BMP, .ICO: return false
        }
    }

    /// The usual file extension, without the dot (`"png"`, `"jpg"`, …); `nil` for `unknown`.
    public var fileExtension: String? {
        switch self {
        case .unknown: return nil
        case .JPEG: return "jpg"
        default: return rawValue.lowercased()
        }
    }

    /// The media type (`"image/png"`, …); `nil` for `unknown`.
    public var mimeType: String? {
        switch self {
        case .unknown: return nil
        case .JPEG: return "image/jpeg"
        case .WebP: return "image/webp"
        case .ICO: return "image/x-icon"
        default: return "image/\(rawValue.lowercased())"
        }
    }

    /// The format's name as people write it (`"PNG"`, `"WebP"`, `"JPEG XL"`, …).
    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .JXL: return "JPEG XL"
        default: return rawValue
        }
    }

    /// The file format of one of Kingfisher's four ``ImageFormat`` cases.
    public init(_ format: ImageFormat) {
        switch format {
        case .unknown: self = .unknown
        case .PNG: self = .PNG
        case .JPEG: self = .JPEG
        case .GIF: self = .GIF
        }
    }

    /// Recognises a format from its leading bytes; anything too short or unrecognised is
    /// `unknown`. ISO-BMFF files (HEIC, AVIF, JPEG XL's container) are told apart by the brands
    /// of their `ftyp` box within the first 64 bytes: a generic `mif1`/`msf1` major brand is AVIF
    /// when an AVIF brand is among the compatible ones, else HEIC.
    public init<Bytes: Collection<UInt8>>(magicBytes bytes: Bytes) {
        let head = Array(bytes.prefix(64))
        self = Self.recognise(head + [UInt8](repeating: 0, count: max(0, 12 - head.count)), count: head.count)
    }

    private static func recognise(_ b: [UInt8], count: Int) -> ImageFileFormat {
        guard count >= 2 else { return .unknown }
        if count >= 2, b[0] == 0xFF, b[1] == 0x0A { return .JXL }  // bare JPEG XL codestream
        guard count >= 4 else { return .unknown }
        if b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { return .JPEG }
        if b[0...3] == [0x47, 0x49, 0x46, 0x38] { return .GIF }
        if b[0...3] == [0x49, 0x49, 0x2A, 0x00] || b[0...3] == [0x4D, 0x4D, 0x00, 0x2A] { return .TIFF }
        // ICONDIR: reserved 0, type 1 (icon), a non-zero image count.
        if count >= 6, b[0...3] == [0, 0, 1, 0], b[4] | b[5] != 0 { return .ICO }
        // "BM", then a DIB header size that some version of BITMAPINFOHEADER uses.
        if count >= 18, b[0] == 0x42, b[1] == 0x4D,
            [12, 40, 52, 56, 64, 108, 124].contains(Int(b[14]) | Int(b[15]) << 8) && b[16] == 0 && b[17] == 0
        {
            return .BMP
        }
        guard count >= 8 else { return .unknown }
        if b[0...7] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .PNG }
        guard count >= 12 else { return .unknown }
        if b[0...3] == [0x52, 0x49, 0x46, 0x46], b[8...11] == [0x57, 0x45, 0x42, 0x50] { return .WebP }
        if b[0...11] == [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A] { return .JXL }
        guard b[4...7] == [0x66, 0x74, 0x79, 0x70] else { return .unknown }  // ISO-BMFF "ftyp"
        let brand = { (at: Int) in String(decoding: b[at..<at + 4], as: UTF8.self) }
        switch brand(8) {
        case "avif", "avis": return .AVIF
        case "mif1", "msf1":
            // Compatible brands follow the major brand and minor version, up to the box's end.
            let boxEnd = min(count, Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]))
            let compatible = Swift.stride(from: 16, to: boxEnd - 3, by: 4).map(brand)
            return compatible.contains("avif") || compatible.contains("avis") ? .AVIF : .HEIC
        case "heic", "heix", "heim", "heis", "hevc", "hevx": return .HEIC
        default: return .unknown
        }
    }
}

extension KingfisherWrapper where Base == Data {
    /// The file format of the data, from its magic bytes: every format this library knows
    /// (``imageFormat`` is Kingfisher's four-case view of it).
    public var imageFileFormat: ImageFileFormat {
        ImageFileFormat(magicBytes: base)
    }
}
