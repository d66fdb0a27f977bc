// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// The canvas of a HEIF item derived from other images: an image grid or an overlay
/// (ISO/IEC 23008-12 6.6.2.3, 6.6.2.2). libheif 1.15 allocates that canvas at the size the item's
/// own data declares, which nothing checks against the `ispe` size the handle reports: a file of a
/// few hundred bytes could claim a 32767 x 32767 grid. Reading the declaration here lets the pixel
/// limit see it before libheif allocates anything.
///
/// The boxes are read the way libheif 1.15 reads them, quirks included (an `iloc` index field only
/// in version 2 and only of 4 or 8 bytes, fields of other sizes absent, the last `infe` of an item
/// winning, the item's extents concatenated), so that both see the same canvas.
enum HEIFDerivedImage {
    enum Canvas: Equatable {
        /// The item is not a grid or an overlay.
        case none
        /// The canvas size the item's data declares.
        case size(width: Int, height: Int)
        /// The item is a grid or an overlay whose declaration cannot be read.
        case unreadable
    }

    static func canvas(ofItem item: UInt32, in bytes: UnsafeRawBufferPointer) -> Canvas {
        let top = BMFFBox.sequence(in: bytes, 0..<bytes.count)
        guard let meta = top.first(where: { $0.type == BMFFBox.fourCC("meta") }) else { return .none }
        let boxes = meta.children(in: bytes, skip: 4)
        func box(_ type: StaticString) -> BMFFBox? { boxes.first { $0.type == BMFFBox.fourCC(type) } }
        guard let iinf = box("iinf"), let kind = itemType(item, iinf: iinf, bytes),
            kind == BMFFBox.fourCC("grid") || kind == BMFFBox.fourCC("iovl")
        else { return .none }
        guard let iloc = box("iloc"), let data = itemData(item, iloc: iloc, idat: box("idat"), bytes) else { return .unreadable }
        // grid: version, flags, rows - 1, columns - 1; iovl: version, flags, four 16-bit fill values.
        // Then the output width and height, 32-bit when flags bit 0 is set, else 16-bit.
        let headerSize = kind == BMFFBox.fourCC("grid") ? 4 : 10
        guard data.count >= 2 else { return .unreadable }
        let fieldSize = data[1] & 1 == 1 ? 4 : 2
        guard data.count >= headerSize + 2 * fieldSize else { return .unreadable }
        func field(_ offset: Int) -> Int { data[offset..<offset + fieldSize].reduce(0) { $0 << 8 | Int($1) } }
        return .size(width: field(headerSize), height: field(headerSize + fieldSize))
    }

    /// The item type (`infe` version 2 or 3) of `item`; the last entry for it counts.
    private static func itemType(_ item: UInt32, iinf: BMFFBox, _ bytes: UnsafeRawBufferPointer) -> UInt32? {
        let range = iinf.contents
        guard let version = BMFFBox.integer(bytes, at: range.lowerBound, size: 1, within: range) else { return nil }
        // FullBox header, then the entry count (16 bits in version 0, else 32); no entries, no children.
        let countSize = version == 0 ? 2 : 4
        guard let count = BMFFBox.integer(bytes, at: range.lowerBound + 4, size: countSize, within: range),
            count > 0
        else { return nil }
        var type: UInt32?
        for infe in iinf.children(in: bytes, skip: 4 + countSize) where infe.type == BMFFBox.fourCC("infe") {
            let range = infe.contents
            guard let infeVersion = BMFFBox.integer(bytes, at: range.lowerBound, size: 1, within: range),
                infeVersion >= 2
            else { continue }
            let idSize = infeVersion == 2 ? 2 : 4
            guard let id = BMFFBox.integer(bytes, at: range.lowerBound + 4, size: idSize, within: range),
                id == Int(item)
            else { continue }
            // After the ID: a 16-bit protection index, then the four-character item type.
            type = BMFFBox.integer(bytes, at: range.lowerBound + 4 + idSize + 2, size: 4, within: range).map(UInt32.init)
        }
        return type
    }

    /// The first 12 bytes (or fewer) of `item`'s data as `iloc` locates it, in the file
    /// (construction method 0) or in `idat` (method 1), its extents concatenated.
    private static func itemData(_ item: UInt32, iloc: BMFFBox, idat: BMFFBox?, _ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        let range = iloc.contents
        var position = range.lowerBound
        /// A field of `size` bytes; libheif reads only fields of 4 or 8 bytes when the size is a
        /// choice (`optional`), and takes the others as absent (0).
        func read(_ size: Int, optional: Bool = false) -> Int? {
            if optional && size != 4 && size != 8 { return 0 }
            guard let value = BMFFBox.integer(bytes, at: position, size: size, within: range) else { return nil }
            position += size
            return value
        }
        guard let version = read(1), read(3) != nil, let sizes = read(2) else { return nil }
        let (offsetSize, lengthSize, baseOffsetSize) = (sizes >> 12 & 15, sizes >> 8 & 15, sizes >> 4 & 15)
        let indexSize = version > 1 ? sizes & 15 : 0
        let idSize = version < 2 ? 2 : 4
        guard let count = read(idSize), count <= 20_000 else { return nil }
        for _ in 0..<count {
            guard let id = read(idSize) else { return nil }
            var method = 0
            if version >= 1 {
                guard let field = read(2) else { return nil }
                method = field & 15
            }
            guard read(2) != nil, let base = read(baseOffsetSize, optional: true), let extentCount = read(2),
                extentCount <= 32
            else { return nil }
            var extents: [(offset: Int, length: Int)] = []
            for _ in 0..<extentCount {
                guard read(indexSize, optional: true) != nil, let offset = read(offsetSize, optional: true),
                    let length = read(lengthSize, optional: true)
                else { return nil }
                extents.append((offset, length))
            }
            guard id == Int(item) else { continue }
            let container: Range<Int>
            switch method {
            case 0: container = 0..<bytes.count
            case 1:
                guard let idat else { return nil }
                container = idat.contents
            default: return nil
            }
            var data: [UInt8] = []
            for extent in extents where data.count < 12 {
                let (start, overflow) = base.addingReportingOverflow(extent.offset)
                guard !overflow, start <= container.count, extent.length <= container.count - start else { return nil }
                let from = container.lowerBound + start
                data += bytes[from..<from + min(extent.length, 12 - data.count)]
            }
            return data
        }
        return nil
    }
}
