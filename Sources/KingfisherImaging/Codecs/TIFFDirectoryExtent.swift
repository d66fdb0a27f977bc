/// Whether a TIFF's first directory, with every value it points to, lies within the bytes: when
/// libtiff cannot open a file whose directory does not, the file was cut short (truncated)
/// rather than malformed. Classic TIFF and BigTIFF, either byte order.
enum TIFFDirectoryExtent {
    static func firstDirectoryIsComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 8 else { return false }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return true  // not a TIFF header at all: malformed, not cut short
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
        guard let directory = value(at: isBigTIFF ? 8 : 4, size: offsetSize),
              let entryCount = value(at: directory, size: countSize) else { return false }
        let available = UInt64(bytes.count)
        let (entriesSize, overflow) = entryCount.multipliedReportingOverflow(by: UInt64(entrySize))
        guard !overflow, directory < available,
              available - directory >= UInt64(countSize) + entriesSize + UInt64(offsetSize) else { return false }
        for index in 0..<entryCount {
            let entry = directory + UInt64(countSize) + index * UInt64(entrySize)
            guard let type = value(at: entry + 2, size: 2), let count = value(at: entry + 4, size: inlineSize),
                  let typeSize = typeSizes[Int(type)] else { continue }
            let (size, overflow) = count.multipliedReportingOverflow(by: UInt64(typeSize))
            guard !overflow else { return true }  // an impossible count: malformed
            guard size > UInt64(inlineSize) else { continue }
            guard let offset = value(at: entry + 4 + UInt64(inlineSize), size: offsetSize),
                  offset <= available, available - offset >= size else { return false }
        }
        return true
    }

    /// Bytes per value of each TIFF field type (1 BYTE … 18 IFD8).
    private static let typeSizes: [Int: Int] = [
        1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8,
    ]
}
