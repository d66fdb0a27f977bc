// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A source's EXIF block, as an output keeps it (the grammar's `keep(exif)` and
/// `keep(copyright)`): read from a JPEG, PNG or WebP file, then written into the output by
/// ``KingfisherImage/encoded(as:options:)`` through ``ImageEncodingOptions/exif``.
public struct EXIFBlock: Sendable, Hashable {
    /// The TIFF-structured bytes, from the TIFF header (`II*\0` or `MM\0*`) on.
    public let tiff: Data

    /// Artist: who made the image.
    static let artistTag = 0x013B
    /// Copyright: the notice.
    static let copyrightTag = 0x8298
    /// In IFD1 (the thumbnail's directory): where its JPEG starts and how long it is.
    private static let thumbnailOffsetTag = 0x0201
    private static let thumbnailLengthTag = 0x0202

    /// The EXIF block of a JPEG (APP1), PNG (`eXIf`) or WebP (`EXIF`) file; `nil` when it has
    /// none, a malformed one, or one over `maxByteCount` (default
    /// ``ImageCreatingOptions/defaultMaxEXIFByteCount``).
    public init?(of data: Data, maxByteCount: Int = ImageCreatingOptions.defaultMaxEXIFByteCount) {
        guard let tiff = data.withUnsafeBytes({ Self.locate(in: $0, maxByteCount: maxByteCount).map { Data($0) } }) else { return nil }
        self.init(tiff: tiff)
    }

    /// A block of TIFF-structured bytes (a leading `Exif\0\0` is dropped); `nil` when they have
    /// no valid TIFF header.
    public init?(tiff: Data) {
        guard let start = tiff.withUnsafeBytes({ bytes in TIFFLayout(bytes).map { bytes.count - $0.bytes.count } }) else { return nil }
        self.tiff = Data(tiff.dropFirst(start))
    }

    /// The TIFF-structured EXIF bytes in a JPEG, PNG or WebP file, at most `maxByteCount`.
    static func locate(in bytes: UnsafeRawBufferPointer, maxByteCount: Int) -> UnsafeRawBufferPointer? {
        let found: UnsafeRawBufferPointer? =
            switch ImageFileFormat(magicBytes: Data(bytes.prefix(ImageFormatRegistry.signatureByteCount))) {
            case .JPEG: JPEGMetadata(jpeg: bytes, maxEXIFByteCount: maxByteCount).exif
            case .PNG: PNGChunkLayout(bytes)?.exif
            case .WebP: WebPCodec.metadataChunk(bytes, "EXIF", flag: 0x08) { $0 }
            default: nil
            }
        guard let found, let layout = TIFFLayout(found), layout.bytes.count <= maxByteCount else { return nil }
        return layout.bytes
    }

    /// The block as an output of the image keeps it: the orientation set to 1 (the pixels
    /// written are upright already) and the thumbnail's directory and bytes wiped (it shows the
    /// source before its processing: uncropped, unblurred). Everything else stays, GPS too.
    public var uprighted: EXIFBlock {
        var bytes = [UInt8](tiff)
        bytes.withUnsafeMutableBytes { mutable in
            guard let layout = TIFFLayout(UnsafeRawBufferPointer(mutable)), let first = layout.firstDirectory else { return }
            let main = layout.entries(ofDirectoryAt: first)
            if let orientation = main[EXIFReader.orientationTag], orientation.type == 3 {
                Self.write16(1, at: orientation.valueOffset, in: mutable, littleEndian: layout.littleEndian)
            }
            // The next-directory link after IFD0's entries: IFD1, the thumbnail.
            guard let count = layout.u16(first), let next = layout.u32(first + 2 + count * 12), next != 0 else { return }
            let link = first + 2 + count * 12
            let thumbnail = layout.entries(ofDirectoryAt: next)
            if let start = layout.integer(thumbnail[Self.thumbnailOffsetTag]),
                let length = layout.integer(thumbnail[Self.thumbnailLengthTag]),
                start >= 0, length >= 0, start <= mutable.count - length
            {
                for index in start..<(start + length) { mutable[index] = 0 }
            }
            Self.write16(0, at: link, in: mutable, littleEndian: layout.littleEndian)
            Self.write16(0, at: link + 2, in: mutable, littleEndian: layout.littleEndian)
        }
        return EXIFBlock(checked: Data(bytes))
    }

    /// Only who made the image and its copyright notice (Artist, Copyright), in a block of their
    /// own; `nil` when the source has neither.
    public var copyrightOnly: EXIFBlock? {
        let kept: [(tag: Int, value: [UInt8])] = tiff.withUnsafeBytes { bytes in
            guard let layout = TIFFLayout(bytes) else { return [] }
            let main = layout.entries(ofDirectoryAt: layout.firstDirectory)
            return [Self.artistTag, Self.copyrightTag].compactMap { tag in
                guard let entry = main[tag], entry.type == 2 else { return nil }
                let value = Array(layout.bytes[entry.valueOffset..<(entry.valueOffset + entry.count)].prefix { $0 != 0 })
                return value.isEmpty ? nil : (tag, value + [0])
            }
        }
        guard !kept.isEmpty else { return nil }
        // Little-endian: the header, one directory (ascending tags, no next), then the strings.
        var block: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        let directoryEnd = 8 + 2 + kept.count * 12 + 4
        var values: [UInt8] = []
        block += UInt16(truncatingIfNeeded: kept.count).littleEndianBytes
        for (tag, value) in kept {
            block +=
                UInt16(truncatingIfNeeded: tag).littleEndianBytes + UInt16(2).littleEndianBytes
                + UInt32(truncatingIfNeeded: value.count).littleEndianBytes
            if value.count <= 4 {
                block += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                block += UInt32(truncatingIfNeeded: directoryEnd + values.count).littleEndianBytes
                values += value
            }
        }
        block += [0, 0, 0, 0] + values
        return EXIFBlock(checked: Data(block))
    }

    /// A block already known to have a valid header.
    private init(checked tiff: Data) {
        self.tiff = tiff
    }

    private static func write16(_ value: Int, at offset: Int, in bytes: UnsafeMutableRawBufferPointer, littleEndian: Bool) {
        guard offset >= 0, offset <= bytes.count - 2 else { return }
        bytes[offset] = UInt8(truncatingIfNeeded: littleEndian ? value : value >> 8)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: littleEndian ? value >> 8 : value)
    }

}
