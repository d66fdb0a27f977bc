// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// A palette PNG whose tRNS chunk comes before its PLTE: the specification puts tRNS after
/// PLTE, but libpng, Pillow and every browser take the palette's alphas either way, while
/// libspng drops them. Such a file is decoded as the same chunks with tRNS moved after PLTE.
enum PNGTransparencyOrder {
    /// `bytes` (a PNG) with any tRNS chunk that comes before PLTE moved right after it; `nil`
    /// when there is none (only the chunks before the image data are looked at).
    static func repaired(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var early: [Range<Int>] = []
        var palette: Range<Int>?
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).bigEndian)
            guard length <= bytes.count - offset - 12 else { break }
            let type = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).bigEndian
            let chunk = offset..<(offset + 12 + length)
            if type == PNGChunkType.transparency, palette == nil {
                early.append(chunk)
            } else if type == PNGChunkType.palette {
                palette = chunk
            } else if type == PNGChunkType.imageData {
                break
            }
            offset = chunk.upperBound
        }
        guard !early.isEmpty, let palette else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(bytes.count)
        var copied = 0
        for range in early + [palette] {
            output += bytes[copied..<range.lowerBound]
            copied = range.upperBound
        }
        output += bytes[palette]
        for range in early { output += bytes[range] }
        output += bytes[copied...]
        return output
    }
}
