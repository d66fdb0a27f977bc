// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A TIFF-structured block (what EXIF is: `II*\0` or `MM\0*`, then directories of 12-byte
/// entries) read with every offset checked against the buffer: EXIF arrives from the network
/// and is as untrusted as the pixels. The one reader of EXIF's orientation, summary and the
/// blocks an output keeps.
struct TIFFLayout {
    /// The block from its TIFF header on.
    let bytes: UnsafeRawBufferPointer
    /// `II` (Intel) rather than `MM` (Motorola) byte order.
    let littleEndian: Bool

    /// One directory entry: its tag and type, how many values, and where they are (inline in
    /// the entry when they fit in 4 bytes, else at the offset it gives).
    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        /// Where the values start in ``TIFFLayout/bytes``.
        var valueOffset: Int
    }

    /// The bytes of one value of each TIFF type: BYTE, ASCII, SHORT, LONG, RATIONAL,
    /// UNDEFINED, SLONG, SRATIONAL.
    private static let typeSizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8]
    /// More entries than a directory has in practice: a hostile count stops here.
    private static let maxEntryCount = 1000

    /// A leading `Exif\0\0` (how JPEG's APP1 and some WebP writers start it).
    static let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    /// The layout of `block` (a leading `Exif\0\0` skipped); `nil` when it has no valid TIFF
    /// header.
    init?(_ block: UnsafeRawBufferPointer) {
        var data = block
        if data.count >= 6, data.prefix(6).elementsEqual(Self.exifPrefix) { data = UnsafeRawBufferPointer(rebasing: data[6...]) }
        guard data.count >= 8 else { return nil }
        switch (data[0], data[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        bytes = data
        guard u16(2) == 42 else { return nil }
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at <= bytes.count - 2 else { return nil }
        let (a, b) = (Int(bytes[at]), Int(bytes[at + 1]))
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int) -> Int? {
        guard let low = u16(littleEndian ? at : at + 2), let high = u16(littleEndian ? at + 2 : at) else { return nil }
        return high << 16 | low
    }

    /// Where the first directory (IFD0: the image's own tags) starts.
    var firstDirectory: Int? { u32(4) }

    /// The entries of the directory at `offset` whose values lie inside the block, by tag;
    /// empty when there is none there.
    func entries(ofDirectoryAt offset: Int?) -> [Int: Entry] {
        guard let offset, let count = u16(offset), count <= Self.maxEntryCount else { return [:] }
        var found: [Int: Entry] = [:]
        for index in 0..<count {
            let entry = offset + 2 + index * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let number = u32(entry + 4) else { break }
            guard let size = Self.typeSizes[type], number < 1 << 20 else { continue }
            guard let at = size * number <= 4 ? entry + 8 : u32(entry + 8), at + size * number <= bytes.count else { continue }
            found[tag] = Entry(tag: tag, type: type, count: number, valueOffset: at)
        }
        return found
    }

    /// An ASCII value, trimmed; `nil` when absent, of another type or empty.
    func text(_ entry: Entry?) -> String? {
        guard let entry, entry.type == 2 else { return nil }
        let characters = bytes[entry.valueOffset..<(entry.valueOffset + entry.count)].prefix { $0 != 0 }
        let string = String(decoding: characters, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return string.isEmpty ? nil : string
    }

    /// The `index`th value of a RATIONAL or SRATIONAL entry.
    func rational(_ entry: Entry?, _ index: Int = 0) -> Double? {
        guard let entry, entry.type == 5 || entry.type == 10, index < entry.count,
            let numerator = u32(entry.valueOffset + index * 8), let denominator = u32(entry.valueOffset + index * 8 + 4),
            denominator != 0
        else { return nil }
        return entry.type == 10
            ? Double(Int32(truncatingIfNeeded: numerator)) / Double(Int32(truncatingIfNeeded: denominator))
            : Double(numerator) / Double(denominator)
    }

    /// The first value of a SHORT or LONG entry.
    func integer(_ entry: Entry?) -> Int? {
        guard let entry else { return nil }
        return entry.type == 3 ? u16(entry.valueOffset) : entry.type == 4 ? u32(entry.valueOffset) : nil
    }
}
