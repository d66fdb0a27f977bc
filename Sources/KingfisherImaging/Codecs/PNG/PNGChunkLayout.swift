// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CDeflate

/// Where the parts of a well-formed PNG are, found by walking its chunks and checking every
/// CRC: the header fields, the IDAT chunks' data in order, and the eXIf chunk.
///
/// `nil` whenever anything is unusual — a bad signature, CRC or IHDR, a chunk running past the
/// end, IDAT chunks that are not consecutive, an unknown critical chunk, no IEND — so that
/// libspng, with its fuller checks and errors, decides about those files.
struct PNGChunkLayout {
    let width: Int
    let height: Int
    let bitDepth: UInt8
    let colorType: UInt8
    let interlaced: Bool
    /// Whether a tRNS chunk (a palette's alphas or a colour key) is present.
    let hasTransparencyChunk: Bool
    /// The data of every IDAT chunk, in file order: together, one zlib stream.
    let imageData: [UnsafeRawBufferPointer]
    /// The eXIf chunk's data (a TIFF structure), if any.
    let exif: UnsafeRawBufferPointer?

    private static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// Walks the chunks of `bytes`, which must stay valid while the layout is used.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8, bytes.prefix(8).elementsEqual(Self.signature), let base = bytes.baseAddress else {
            return nil
        }
        func word(_ offset: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).bigEndian }

        var header: UnsafeRawBufferPointer?
        var imageData: [UnsafeRawBufferPointer] = []
        var exif: UnsafeRawBufferPointer?
        var hasTransparencyChunk = false
        var previousType: UInt32 = 0
        var offset = 8
        var ended = false
        while !ended {
            guard bytes.count - offset >= 12 else { return nil }
            let length = Int(word(offset))
            guard length <= Int(Int32.max), length <= bytes.count - offset - 12 else { return nil }
            let type = word(offset + 4)
            // The CRC covers the type and the data.
            guard libdeflate_crc32(0, base + offset + 4, length + 4) == word(offset + 8 + length) else { return nil }
            let body = UnsafeRawBufferPointer(start: base + offset + 8, count: length)
            switch type {
            case PNGChunkType.header:
                guard offset == 8, length == 13 else { return nil }
                header = body
            case PNGChunkType.imageData:
                guard header != nil, imageData.isEmpty || previousType == PNGChunkType.imageData else { return nil }
                imageData.append(body)
            case PNGChunkType.transparency:
                hasTransparencyChunk = true
            case PNGChunkType.exif:
                exif = body
            case PNGChunkType.end:
                ended = true
            case PNGChunkType.palette:
                break
            default:
                guard !PNGChunkType.isCritical(type) else { return nil }
            }
            guard header != nil else { return nil }
            previousType = type
            offset += 12 + length
        }
        guard let header, !imageData.isEmpty else { return nil }

        let fields = UnsafeRawBufferPointer(header)
        let width = Int(fields.loadUnaligned(fromByteOffset: 0, as: UInt32.self).bigEndian)
        let height = Int(fields.loadUnaligned(fromByteOffset: 4, as: UInt32.self).bigEndian)
        // Compression and filter methods 0 are the only ones defined; interlacing is 0 or 1 (Adam7).
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
            fields[10] == 0, fields[11] == 0, fields[12] <= 1
        else { return nil }
        self.width = width
        self.height = height
        bitDepth = fields[8]
        colorType = fields[9]
        interlaced = fields[12] == 1
        self.hasTransparencyChunk = hasTransparencyChunk
        self.imageData = imageData
        self.exif = exif
    }
}
