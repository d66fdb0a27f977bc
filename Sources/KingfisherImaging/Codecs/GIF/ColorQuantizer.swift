// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Reduces RGBA8 pixels to an indexed palette of at most 256 entries, for GIF.
///
/// Images with few colours keep them exactly (a decoded GIF re-encodes to the same pixels).
/// Otherwise median cut over a 5-bit-per-channel histogram: the box with the most pixels times
/// its widest channel range is split at its weighted median until the palette is full, and each
/// entry is the mean of the pixels in its box. Pixels with alpha below 128 become the
/// transparent index.
struct ColorQuantizer {
    /// The palette as RGB triples.
    var palette: [(r: UInt8, g: UInt8, b: UInt8)] = []
    /// One palette index per pixel.
    var indices: [UInt8] = []
    /// The index that stands for transparent pixels, if there are any.
    var transparentIndex: Int?

    init(pixels: [UInt8]) {
        let count = pixels.count / 4
        let hasTransparency = pixels.withUnsafeBufferPointer { p in
            (0..<count).contains { p[$0 * 4 + 3] < 128 }
        }
        let capacity = hasTransparency ? 255 : 256
        if !quantizeExactly(pixels, capacity: capacity) {
            quantizeByMedianCut(pixels, capacity: capacity)
        }
        if hasTransparency {
            let index = palette.count
            transparentIndex = index
            palette.append((0, 0, 0))
            pixels.withUnsafeBufferPointer { p in
                for i in 0..<count where p[i * 4 + 3] < 128 { indices[i] = UInt8(index) }
            }
        }
    }

    /// Uses the image's own colours when there are at most `capacity` of them.
    private mutating func quantizeExactly(_ pixels: [UInt8], capacity: Int) -> Bool {
        var lookup: [UInt32: UInt8] = [:]
        var colors: [(UInt8, UInt8, UInt8)] = []
        var result = [UInt8](repeating: 0, count: pixels.count / 4)
        let fits = pixels.withUnsafeBufferPointer { p -> Bool in
            for i in 0..<result.count where p[i * 4 + 3] >= 128 {
                let key = UInt32(p[i * 4]) << 16 | UInt32(p[i * 4 + 1]) << 8 | UInt32(p[i * 4 + 2])
                if let index = lookup[key] {
                    result[i] = index
                } else {
                    guard colors.count < capacity else { return false }
                    lookup[key] = UInt8(colors.count)
                    result[i] = UInt8(colors.count)
                    colors.append((p[i * 4], p[i * 4 + 1], p[i * 4 + 2]))
                }
            }
            return true
        }
        guard fits else { return false }
        palette = colors.map { (r: $0.0, g: $0.1, b: $0.2) }
        indices = result
        return true
    }

    private struct Box {
        var bins: [Int]
        var population: Int
        var widestChannel: Int
        var range: Int
    }

    private static func binKey(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
    }

    private static func channel(_ bin: Int, _ c: Int) -> Int { (bin >> (10 - 5 * c)) & 31 }

    private static func makeBox(_ bins: [Int], counts: [Int]) -> Box {
        var low = [31, 31, 31]
        var high = [0, 0, 0]
        var population = 0
        for bin in bins {
            population += counts[bin]
            for c in 0..<3 {
                let v = channel(bin, c)
                low[c] = min(low[c], v)
                high[c] = max(high[c], v)
            }
        }
        let ranges = (0..<3).map { high[$0] - low[$0] }
        let widest = ranges.firstIndex(of: ranges.max()!)!
        return Box(bins: bins, population: population, widestChannel: widest, range: ranges[widest])
    }

    private mutating func quantizeByMedianCut(_ pixels: [UInt8], capacity: Int) {
        let binCount = 1 << 15
        var counts = [Int](repeating: 0, count: binCount)
        var sums = [Int](repeating: 0, count: binCount * 3)
        let pixelCount = pixels.count / 4
        var pixelBins = [Int32](repeating: 0, count: pixelCount)
        pixels.withUnsafeBufferPointer { p in
            for i in 0..<pixelCount where p[i * 4 + 3] >= 128 {
                let bin = Self.binKey(p[i * 4], p[i * 4 + 1], p[i * 4 + 2])
                pixelBins[i] = Int32(bin)
                counts[bin] += 1
                sums[bin * 3] += Int(p[i * 4])
                sums[bin * 3 + 1] += Int(p[i * 4 + 1])
                sums[bin * 3 + 2] += Int(p[i * 4 + 2])
            }
        }
        var boxes = [Self.makeBox((0..<binCount).filter { counts[$0] > 0 }, counts: counts)]
        while boxes.count < capacity {
            guard
                let pick = boxes.indices.filter({ boxes[$0].bins.count > 1 })
                    .max(by: { boxes[$0].population * (boxes[$0].range + 1) < boxes[$1].population * (boxes[$1].range + 1) })
            else { break }
            let box = boxes[pick]
            let c = box.widestChannel
            let sorted = box.bins.sorted { Self.channel($0, c) < Self.channel($1, c) }
            var running = 0
            var cut = 1
            for (i, bin) in sorted.enumerated() {
                running += counts[bin]
                if running * 2 >= box.population {
                    cut = min(max(i + 1, 1), sorted.count - 1)
                    break
                }
            }
            boxes[pick] = Self.makeBox(Array(sorted[..<cut]), counts: counts)
            boxes.append(Self.makeBox(Array(sorted[cut...]), counts: counts))
        }
        var binToIndex = [UInt8](repeating: 0, count: binCount)
        palette = boxes.enumerated().map { index, box in
            var total = [0, 0, 0]
            for bin in box.bins {
                binToIndex[bin] = UInt8(index)
                for c in 0..<3 { total[c] += sums[bin * 3 + c] }
            }
            let n = max(box.population, 1)
            return (UInt8((total[0] + n / 2) / n), UInt8((total[1] + n / 2) / n), UInt8((total[2] + n / 2) / n))
        }
        indices = pixelBins.map { binToIndex[Int($0)] }
    }
}
