// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Puts a grid's tiles in the order of its `dimg` references for libavif 0.11, which places them
/// in the order the `meta` box first names their items (in `iloc`, `iinf`, `ipma` or `iref`, whichever comes first).
/// HEIF (ISO/IEC 23008-12 6.6.2.3) says the references give the order, and a file whose items
/// are stored in another order shows scrambled tiles.
///
/// The repair moves the tiles' entries within `iloc` and `iinf`, each into the places the tiles
/// held there: a box keeps its size, and offsets in `iloc` are to the file, so nothing else
/// changes. `ipma` must list items by increasing ID, and it comes after the other two in the
/// files encoders write, so it is left as it is.
enum AVIFGridTileOrder {
    /// One item's entry in a list box: its ID and its bytes.
    private struct Entry {
        let id: Int
        let bytes: Range<Int>
    }

    /// Writes the reordered boxes of `bytes` into `copy` (made from `bytes` when first needed).
    static func repair(_ bytes: UnsafeRawBufferPointer, into copy: inout [UInt8]?) {
        for meta in BMFFBox.sequence(in: bytes, 0..<bytes.count) where meta.type == BMFFBox.fourCC("meta") {
            let boxes = meta.children(in: bytes, skip: 4)
            func box(_ type: StaticString, in list: [BMFFBox]) -> BMFFBox? { list.first { $0.type == BMFFBox.fourCC(type) } }
            guard let itemInfo = box("iinf", in: boxes), let references = box("iref", in: boxes),
                let infos = infoEntries(itemInfo, bytes)
            else { continue }
            let grids = Set(infos.filter { $0.type == BMFFBox.fourCC("grid") }.map(\.entry.id))
            let tileOrders = derivations(references, bytes).filter { grids.contains($0.grid) }.map(\.tiles)
            guard !tileOrders.isEmpty else { continue }
            var lists = [infos.map(\.entry)]
            if let locations = box("iloc", in: boxes), let entries = locationEntries(locations, bytes) { lists.append(entries) }
            for entries in lists { reorder(entries, tileOrders, bytes, &copy) }
        }
    }

    /// Rewrites the span of `entries` with each grid's tiles in `dimg` order, in the places they
    /// held; leaves it alone when a grid's tiles are not each there once.
    private static func reorder(_ entries: [Entry], _ tileOrders: [[Int]], _ bytes: UnsafeRawBufferPointer, _ copy: inout [UInt8]?) {
        var ordered = entries
        for tiles in tileOrders {
            let places = entries.indices.filter { tiles.contains(entries[$0].id) }
            let listed = places.map { entries[$0].id }
            // Each tile once in the list and once in the references, or the list is left alone
            // (a damaged file may name a tile twice and another not at all).
            guard listed.count == tiles.count, Set(listed).count == listed.count, Set(listed) == Set(tiles) else { continue }
            for (place, tile) in zip(places, tiles) {
                guard let source = listed.firstIndex(of: tile) else { continue }
                ordered[place] = entries[places[source]]
            }
        }
        guard ordered.map(\.id) != entries.map(\.id), let first = entries.first, let last = entries.last else { return }
        var rewritten = [UInt8]()
        for entry in ordered { rewritten += UnsafeRawBufferPointer(rebasing: bytes[entry.bytes]) }
        copy = copy ?? Array(bytes)
        copy!.replaceSubrange(first.bytes.lowerBound..<last.bytes.upperBound, with: rewritten)
    }

    /// Reads big-endian fields one after another within a box's contents.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let range: Range<Int>
        var position: Int

        init(_ bytes: UnsafeRawBufferPointer, _ box: BMFFBox) {
            self.bytes = bytes
            range = box.contents
            position = box.contents.lowerBound
        }

        mutating func read(_ size: Int) -> Int? {
            guard let value = BMFFBox.integer(bytes, at: position, size: size, within: range) else { return nil }
            position += size
            return value
        }

        mutating func skip(_ size: Int) -> Bool {
            guard size >= 0, size <= range.upperBound - position else { return false }
            position += size
            return true
        }
    }

    /// The `infe` boxes of `iinf` (versions 2 and 3, which name an item type).
    private static func infoEntries(_ itemInfo: BMFFBox, _ bytes: UnsafeRawBufferPointer) -> [(entry: Entry, type: UInt32)]? {
        var reader = Reader(bytes, itemInfo)
        guard let version = reader.read(1), reader.skip(3), let count = reader.read(version == 0 ? 2 : 4) else { return nil }
        let boxes = BMFFBox.sequence(in: bytes, reader.position..<itemInfo.contents.upperBound)
        guard boxes.count == count else { return nil }
        var entries: [(entry: Entry, type: UInt32)] = []
        for info in boxes {
            var fields = Reader(bytes, info)
            // The last entry may declare an end past the data; moving it would read beyond it.
            guard info.type == BMFFBox.fourCC("infe"), info.declaredEnd <= itemInfo.contents.upperBound,
                let infoVersion = fields.read(1), infoVersion >= 2, fields.skip(3),
                let id = fields.read(infoVersion == 2 ? 2 : 4), fields.skip(2), let type = fields.read(4)
            else { return nil }
            entries.append((Entry(id: id, bytes: info.start..<info.declaredEnd), UInt32(type)))
        }
        return entries
    }

    /// Each `dimg` reference of `iref`: the derived item and its sources in order.
    private static func derivations(_ references: BMFFBox, _ bytes: UnsafeRawBufferPointer) -> [(grid: Int, tiles: [Int])] {
        guard let version = BMFFBox.integer(bytes, at: references.contents.lowerBound, size: 1, within: references.contents) else {
            return []
        }
        let idSize = version == 0 ? 2 : 4
        return references.children(in: bytes, skip: 4).compactMap { reference in
            var fields = Reader(bytes, reference)
            guard reference.type == BMFFBox.fourCC("dimg"), let from = fields.read(idSize), let count = fields.read(2) else { return nil }
            let tiles = (0..<count).compactMap { _ in fields.read(idSize) }
            return tiles.count == count ? (from, tiles) : nil
        }
    }

    /// The item entries of `iloc` (ISO/IEC 14496-12 8.11.3), versions 0 to 2.
    private static func locationEntries(_ locations: BMFFBox, _ bytes: UnsafeRawBufferPointer) -> [Entry]? {
        var reader = Reader(bytes, locations)
        guard let version = reader.read(1), version <= 2, reader.skip(3), let sizes = reader.read(1), let moreSizes = reader.read(1),
            let count = reader.read(version < 2 ? 2 : 4)
        else { return nil }
        let extentSize = sizes >> 4 + sizes & 0x0F + (version == 0 ? 0 : moreSizes & 0x0F)
        var entries: [Entry] = []
        for _ in 0..<count {
            let start = reader.position
            guard let id = reader.read(version < 2 ? 2 : 4), reader.skip((version == 0 ? 0 : 2) + 2 + moreSizes >> 4),
                let extents = reader.read(2), reader.skip(extents * extentSize)
            else { return nil }
            entries.append(Entry(id: id, bytes: start..<reader.position))
        }
        return entries
    }
}
