/// The canvas of a HEIF item derived from other images: an image grid or an overlay
/// (ISO/IEC 23008-12 6.6.2.3, 6.6.2.2). libheif 1.15 allocates that canvas at the size the item's
/// own data declares, which nothing checks against the `ispe` size the handle reports: a file of a
/// few hundred bytes could claim a 32767 x 32767 grid. Reading the declaration here lets the pixel
/// limit see it before libheif allocates anything.
enum HEIFDerivedImage {
    /// The canvas size `item`'s data declares when the item is a `grid` or an `iovl`; `nil` for
    /// other items or when the boxes that describe it cannot be read (libheif then refuses the file).
    static func canvasSize(ofItem item: UInt32, in bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        let top = BMFFBox.sequence(in: bytes, 0..<bytes.count)
        guard let meta = top.first(where: { $0.type == BMFFBox.fourCC("meta") }) else { return nil }
        let boxes = meta.children(in: bytes, skip: 4)
        func box(_ type: StaticString) -> BMFFBox? { boxes.first { $0.type == BMFFBox.fourCC(type) } }
        guard let iinf = box("iinf"), let kind = itemType(item, iinf: iinf, bytes),
              kind == BMFFBox.fourCC("grid") || kind == BMFFBox.fourCC("iovl"),
              let iloc = box("iloc"),
              let data = itemData(item, iloc: iloc, idat: box("idat"), bytes) else { return nil }
        // grid: version, flags, rows - 1, columns - 1; iovl: version, flags, four 16-bit fill values.
        // Then the output width and height, 32-bit when flags bit 0 is set, else 16-bit.
        let headerSize = kind == BMFFBox.fourCC("grid") ? 4 : 10
        guard let flags = BMFFBox.integer(bytes, at: data.lowerBound + 1, size: 1, within: data) else { return nil }
        let fieldSize = flags & 1 == 1 ? 4 : 2
        guard let width = BMFFBox.integer(bytes, at: data.lowerBound + headerSize, size: fieldSize, within: data),
              let height = BMFFBox.integer(bytes, at: data.lowerBound + headerSize + fieldSize, size: fieldSize, within: data)
        else { return nil }
        return (width, height)
    }

    /// The item type (`infe` version 2 or 3) of `item`.
    private static func itemType(_ item: UInt32, iinf: BMFFBox, _ bytes: UnsafeRawBufferPointer) -> UInt32? {
        guard let version = BMFFBox.integer(bytes, at: iinf.contents.lowerBound, size: 1, within: iinf.contents) else { return nil }
        // FullBox header, then the entry count (16 bits in version 0, else 32).
        for infe in iinf.children(in: bytes, skip: version == 0 ? 6 : 8) where infe.type == BMFFBox.fourCC("infe") {
            let range = infe.contents
            guard let infeVersion = BMFFBox.integer(bytes, at: range.lowerBound, size: 1, within: range),
                  infeVersion >= 2 else { continue }
            let idSize = infeVersion == 2 ? 2 : 4
            guard let id = BMFFBox.integer(bytes, at: range.lowerBound + 4, size: idSize, within: range),
                  id == Int(item) else { continue }
            // After the ID: a 16-bit protection index, then the four-character item type.
            return BMFFBox.integer(bytes, at: range.lowerBound + 4 + idSize + 2, size: 4, within: range).map(UInt32.init)
        }
        return nil
    }

    /// The first extent of `item`'s data as located by `iloc`: in the file (construction method 0)
    /// or in `idat` (method 1).
    private static func itemData(
        _ item: UInt32, iloc: BMFFBox, idat: BMFFBox?, _ bytes: UnsafeRawBufferPointer
    ) -> Range<Int>? {
        let range = iloc.contents
        var position = range.lowerBound
        func read(_ size: Int) -> Int? {
            guard let value = size == 0 ? 0 : BMFFBox.integer(bytes, at: position, size: size, within: range) else { return nil }
            position += size
            return value
        }
        guard let version = read(1), read(3) != nil, let sizes = read(1), let sizes2 = read(1) else { return nil }
        let (offsetSize, lengthSize, baseOffsetSize) = (sizes >> 4, sizes & 15, sizes2 >> 4)
        let indexSize = version == 1 || version == 2 ? sizes2 & 15 : 0
        let idSize = version < 2 ? 2 : 4
        guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseOffsetSize),
              let count = read(idSize) else { return nil }
        for _ in 0..<count {
            guard let id = read(idSize) else { return nil }
            var method = 0
            if version == 1 || version == 2 {
                guard let field = read(2) else { return nil }
                method = field & 15
            }
            guard read(2) != nil, let base = read(baseOffsetSize), let extents = read(2) else { return nil }
            var first: (offset: Int, length: Int)?
            for _ in 0..<extents {
                guard read(indexSize) != nil, let offset = read(offsetSize), let length = read(lengthSize) else { return nil }
                if first == nil { first = (offset, length) }
            }
            guard id == Int(item), let first else { continue }
            let container: Range<Int>
            switch method {
            case 0: container = 0..<bytes.count
            case 1:
                guard let idat else { return nil }
                container = idat.contents
            default: return nil
            }
            let (start, overflow) = container.lowerBound.addingReportingOverflow(base &+ first.offset)
            guard !overflow, base >= 0, start >= container.lowerBound, start <= container.upperBound else { return nil }
            let end = first.length == 0 ? container.upperBound : min(container.upperBound, start + min(first.length, container.count))
            return start..<end
        }
        return nil
    }
}
