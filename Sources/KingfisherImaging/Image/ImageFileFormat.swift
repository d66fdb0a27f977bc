// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A file format, as ``ImageFormatRegistry`` knows it: the built-in ones are static members
/// (`.PNG`, `.JPEG`, … each declared in its folder under `Codecs/`), and an application's own
/// format is a value made from its name and registered with a descriptor. What the library
/// knows of a format (its media type, extensions, whether it reads and writes it) comes from
/// its ``ImageFormatDescriptor``.
public struct ImageFileFormat: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The format's identifier: `PNG`, `JPEG`, `WebP`, …
    public let rawValue: String

    /// The format called `rawValue`; it is known to the library once a descriptor for it is
    /// registered.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The bytes are not recognised as an image.
    public static let unknown = ImageFileFormat(rawValue: "unknown")

    /// `unknown`, then every registered format.
    public static var allCases: [ImageFileFormat] { [.unknown] + ImageFormatRegistry.shared.descriptors.map(\.format) }

    /// The format's descriptor in ``ImageFormatRegistry/shared``; `nil` for `unknown`.
    public var descriptor: ImageFormatDescriptor? { ImageFormatRegistry.shared.descriptor(for: self) }

    /// Whether this library decodes the format.
    public var isDecodable: Bool { descriptor?.canDecode ?? false }

    /// Whether this library encodes the format (``KingfisherImage/encoded(as:compressionQuality:lossless:)``).
    public var isEncodable: Bool { descriptor?.canEncode ?? false }

    /// The usual file extension, without the dot (`"png"`, `"jpg"`, …); `nil` for `unknown`.
    public var fileExtension: String? { descriptor?.fileExtensions.first }

    /// The media type (`"image/png"`, …); `nil` for `unknown`.
    public var mimeType: String? { descriptor?.mimeType }

    /// The format's name as people write it (`"PNG"`, `"WebP"`, `"JPEG XL"`, …).
    public var description: String { descriptor?.name ?? rawValue }

    /// The file format of one of Kingfisher's four ``ImageFormat`` cases.
    public init(_ format: ImageFormat) {
        switch format {
        case .unknown: self = .unknown
        case .PNG: self = .PNG
        case .JPEG: self = .JPEG
        case .GIF: self = .GIF
        }
    }

    /// Recognises a format from its leading bytes (the first ``ImageFormatRegistry/signatureByteCount`` are read); anything too short
    /// or unrecognised is `unknown`.
    public init<Bytes: Collection<UInt8>>(magicBytes bytes: Bytes) {
        self = ImageFormatRegistry.shared.format(ofFileStartingWith: bytes)
    }
}

extension KingfisherWrapper where Base == Data {
    /// The file format of the data, from its magic bytes: every format this library knows
    /// (``imageFormat`` is Kingfisher's four-case view of it).
    public var imageFileFormat: ImageFileFormat {
        ImageFileFormat(magicBytes: base)
    }
}
