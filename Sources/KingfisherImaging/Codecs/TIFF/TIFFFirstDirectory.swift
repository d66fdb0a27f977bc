// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// What a TIFF's header and first directory say, read before libtiff sees the data: the image
/// size, so that the pixel limit is checked before libtiff allocates anything for the
/// directory's arrays (a few bytes can declare millions of strips), and whether the directory,
/// with every value it points to, lies within the data. Classic TIFF and BigTIFF, either byte
/// order; every offset is checked against the buffer.
struct TIFFFirstDirectory {
    /// ImageWidth and ImageLength, when the directory holds them as single SHORT, LONG or LONG8 values.
    private(set) var width: Int?
    private(set) var height: Int?
    /// False when the data ends within the header, the directory or a value it points to: when
    /// libtiff cannot open such data, it was cut short rather than malformed.
    private(set) var isComplete = true

    init(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8 else {
            isComplete = false
            return
        }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return  // not a TIFF header at all: malformed, not cut short
        }
        /// The unsigned integer of `size` bytes at `offset`, or `nil` past the end.
        func value(at offset: UInt64, size: Int) -> UInt64? {
            guard offset <= UInt64(bytes.count), UInt64(bytes.count) - offset >= UInt64(size) else { return nil }
            var result: UInt64 = 0
            for i in 0..<size {
                let index = Int(offset) + (littleEndian ? size - 1 - i : i)
                result = result << 8 | UInt64(bytes[index])
            }
            return result
        }
        let isBigTIFF = value(at: 2, size: 2) == 43
        // Sizes of an offset, an entry count, a directory entry, and a value held in an entry.
        let (offsetSize, countSize, entrySize, inlineSize) = isBigTIFF ? (8, 8, 20, 8) : (4, 2, 12, 4)
        let available = UInt64(bytes.count)
        guard let directory = value(at: isBigTIFF ? 8 : 4, size: offsetSize),
            let entryCount = value(at: directory, size: countSize),
            case (let entriesSize, let overflow) = entryCount.multipliedReportingOverflow(by: UInt64(entrySize)), !overflow,
            directory < available, available - directory >= UInt64(countSize) + entriesSize + UInt64(offsetSize)
        else {
            isComplete = false
            return
        }
        for index in 0..<entryCount {
            let entry = directory + UInt64(countSize) + index * UInt64(entrySize)
            guard let tag = value(at: entry, size: 2), let type = value(at: entry + 2, size: 2),
                let count = value(at: entry + 4, size: inlineSize),
                let typeSize = Self.typeSizes[Int(type)]
            else { continue }
            let valueOffset = entry + 4 + UInt64(inlineSize)
            if tag == 256 || tag == 257, count == 1, [3, 4, 16].contains(type),
                let size = value(at: valueOffset, size: typeSize).flatMap({ Int(exactly: $0) })
            {
                // The first of duplicates counts, as libtiff reads it.
                if tag == 256 { width = width ?? size } else { height = height ?? size }
            }
            let (size, overflow) = count.multipliedReportingOverflow(by: UInt64(typeSize))
            guard !overflow else { continue }  // an impossible count: malformed, libtiff says so
            guard size > UInt64(inlineSize) else { continue }
            guard let offset = value(at: valueOffset, size: offsetSize), offset <= available, available - offset >= size else {
                isComplete = false
                continue
            }
        }
    }

    /// Bytes per value of each TIFF field type (1 BYTE … 18 IFD8).
    private static let typeSizes: [Int: Int] = [
        1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8,
    ]
}
