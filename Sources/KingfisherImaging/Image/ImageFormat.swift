// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Kingfisher's image format: the four cases code written for Kingfisher switches over.
///
/// Every other format (WebP, HEIC, AVIF, JPEG XL, TIFF, BMP, ICO) is `unknown` here, as it is
/// for Kingfisher; ``ImageFileFormat`` names them all.
public enum ImageFormat: Sendable {
    /// The format cannot be recognised or is not one of the three below.
    case unknown
    /// PNG image format.
    case PNG
    /// JPEG image format.
    case JPEG
    /// GIF image format.
    case GIF

    /// A JPEG marker: the two bytes that begin a segment of a JPEG file (ITU T.81, table B.1).
    public enum JPEGMarker: Sendable, Equatable {
        /// Start of frame, baseline.
        case SOF0
        /// Start of frame, progressive.
        case SOF2
        /// Huffman table.
        case DHT
        /// Quantization table.
        case DQT
        /// Restart interval.
        case DRI
        /// Start of scan.
        case SOS
        /// Restart marker `n` (0...7).
        case RSTn(UInt8)
        /// Application segment 0 (JFIF).
        case APPn
        /// Comment.
        case COM
        /// End of image.
        case EOI

        /// The marker's two bytes.
        var bytes: [UInt8] {
            switch self {
            case .SOF0: [0xFF, 0xC0]
            case .SOF2: [0xFF, 0xC2]
            case .DHT: [0xFF, 0xC4]
            case .DQT: [0xFF, 0xDB]
            case .DRI: [0xFF, 0xDD]
            case .SOS: [0xFF, 0xDA]
            case .RSTn(let n): [0xFF, 0xD0 &+ (n & 0x07)]
            case .APPn: [0xFF, 0xE0]
            case .COM: [0xFF, 0xFE]
            case .EOI: [0xFF, 0xD9]
            }
        }
    }

    /// Kingfisher's view of a file format: PNG, JPEG and GIF keep their case, the rest are `unknown`.
    public init(_ fileFormat: ImageFileFormat) {
        switch fileFormat {
        case .PNG: self = .PNG
        case .JPEG: self = .JPEG
        case .GIF: self = .GIF
        default: self = .unknown
        }
    }
}

extension KingfisherWrapper where Base == Data {
    /// Gets the image format corresponding to the data, as Kingfisher: `PNG`, `JPEG`, `GIF` or
    /// `unknown` (``imageFileFormat`` names the other formats).
    public var imageFormat: ImageFormat {
        ImageFormat(base.kf.imageFileFormat)
    }

    /// Whether JPEG data contains `marker`'s two bytes anywhere, as Kingfisher checks (a
    /// progressive JPEG contains ``ImageFormat/JPEGMarker/SOF2``); `false` for data that is not
    /// a JPEG.
    public func contains(jpeg marker: ImageFormat.JPEGMarker) -> Bool {
        guard imageFormat == .JPEG else { return false }
        return base.range(of: Data(marker.bytes)) != nil
    }
}
