// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CDeflate

/// Decodes the PNGs most files are — 8-bit grey, grey and alpha, RGB or RGBA, not interlaced,
/// without tRNS — by inflating all image data at once with libdeflate (about 1.6x the speed of
/// zlib's streaming inflate that libspng uses) and unfiltering the rows with ``PNGRowFilter``.
///
/// The inflated image (height x (1 + width x channels) bytes) is held whole while its rows are
/// expanded to RGBA8, so images inflating to more than ``maxInflatedSize`` are left to libspng,
/// which streams them row by row. Anything else this decoder does not take, or data that does
/// not inflate to exactly the image's size, is left to libspng too (``PNGCodec``), which
/// reports what is wrong.
struct PNGDirectDecoder {
    /// The most inflated bytes held at once: 64 MiB (a 21-megapixel RGB or 16-megapixel RGBA
    /// image).
    static let maxInflatedSize = 64 << 20

    let width: Int
    let height: Int
    let hasAlpha: Bool
    /// Bytes per pixel in the file's rows: 1 (grey), 2 (grey, alpha), 3 (RGB) or 4 (RGBA).
    let channels: Int
    private let layout: PNGChunkLayout
    /// Bytes of one unfiltered row; each inflated row is one filter byte and these.
    private let rowBytes: Int
    /// height x (1 + rowBytes): what the image data must inflate to.
    private let inflatedSize: Int
    /// Readable and writable bytes after every row's end: PNGRowFilter and the expansion load
    /// four bytes at a time.
    private static let slack = 4

    /// `nil` when `layout` is not a kind this decoder takes, or too large to inflate at once.
    init?(_ layout: PNGChunkLayout) {
        guard layout.bitDepth == 8, !layout.interlaced, !layout.hasTransparencyChunk else { return nil }
        switch layout.colorType {
        case 0: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        let (rowBytes, overflow1) = layout.width.multipliedReportingOverflow(by: channels)
        let (inflated, overflow2) = (rowBytes + 1).multipliedReportingOverflow(by: layout.height)
        guard !overflow1, !overflow2, inflated <= Self.maxInflatedSize else { return nil }
        self.rowBytes = rowBytes
        inflatedSize = inflated
        self.layout = layout
        width = layout.width
        height = layout.height
        hasAlpha = layout.colorType == 4 || layout.colorType == 6
    }

    /// Inflates the image data and calls `row` with each row, unfiltered and expanded to
    /// `width` RGBA8 pixels written at `destination(y)`, top to bottom. Returns `false`, having
    /// called neither, when the data is not exactly one valid zlib stream of the image's size
    /// or a row names an undefined filter.
    func decodeRows(
        destination: (Int) -> UnsafeMutablePointer<UInt8>,
        row: (UnsafePointer<UInt8>) -> Void
    ) -> Bool {
        forEachFileRow { y, source in
            let output = destination(y)
            expand(source, to: output)
            row(output)
        }
    }

    /// Like ``decodeRows(destination:row:)``, but hands over each row (with its index) as the
    /// file has it once unfiltered: `width` pixels of ``channels`` bytes.
    func forEachFileRow(_ row: (Int, UnsafePointer<UInt8>) -> Void) -> Bool {
        let size = inflatedSize
        let stride = rowBytes + 1
        return ScratchMemory.withBytes(count: size + Self.slack) { inflated in
            (inflated + size).initialize(repeating: 0, count: Self.slack)
            guard inflate(into: inflated, count: size) else { return false }
            for y in 0..<height where !PNGRowFilter.isValid(inflated[y * stride]) { return false }
            unfilterRows(inflated, row: row)
            return true
        }
    }

    /// Unfilters the inflated rows in place, top to bottom, passing each to `row`.
    private func unfilterRows(_ inflated: UnsafeMutablePointer<UInt8>, row: (Int, UnsafePointer<UInt8>) -> Void) {
        let stride = rowBytes + 1
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes + Self.slack)
        defer { zeros.deallocate() }
        zeros.initialize(repeating: 0, count: rowBytes + Self.slack)
        var previous = UnsafePointer(zeros)
        for y in 0..<height {
            let line = inflated + y * stride
            PNGRowFilter.undo(line[0], row: line + 1, previous: previous, count: rowBytes, bytesPerPixel: channels)
            row(y, UnsafePointer(line + 1))
            previous = UnsafePointer(line + 1)
        }
    }

    /// Inflates the IDAT data (one zlib stream) into exactly `count` bytes. The zlib wrapper's
    /// Adler-32 is not checked: every chunk's CRC already was.
    private func inflate(into output: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        if layout.imageData.count == 1 {
            return Self.inflate(layout.imageData[0], into: output, count: count)
        }
        let total = layout.imageData.reduce(0) { $0 + $1.count }
        return ScratchMemory.withBytes(count: total) { stream in
            var end = stream
            for chunk in layout.imageData {
                UnsafeMutableRawPointer(end).copyMemory(from: chunk.baseAddress!, byteCount: chunk.count)
                end += chunk.count
            }
            return Self.inflate(UnsafeRawBufferPointer(start: stream, count: total), into: output, count: count)
        }
    }

    private static func inflate(
        _ stream: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>,
        count: Int
    ) -> Bool {
        // The zlib header: deflate with a window of at most 32 KB, no preset dictionary, and a
        // check value making the two bytes a multiple of 31.
        guard stream.count > 2, stream[0] & 0x0F == 8, stream[0] >> 4 <= 7, stream[1] & 0x20 == 0,
            (UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31 == 0,
            let decompressor = libdeflate_alloc_decompressor()
        else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        let result = libdeflate_deflate_decompress(
            decompressor, stream.baseAddress! + 2, stream.count - 2,
            output, count, nil)
        return result == LIBDEFLATE_SUCCESS
    }

    /// Writes the unfiltered `source` row as RGBA8 (grey replicated, alpha 255 when absent).
    private func expand(_ source: UnsafePointer<UInt8>, to output: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeRawPointer(source)
        let out = UnsafeMutableRawPointer(output)
        func load(_ x: Int) -> UInt32 { raw.loadUnaligned(fromByteOffset: x * channels, as: UInt32.self) }
        func store(_ value: UInt32, _ x: Int) { out.storeBytes(of: value, toByteOffset: x * 4, as: UInt32.self) }
        // Little-endian words: the first byte is the lowest.
        switch channels {
        case 4:
            output.update(from: source, count: width * 4)
        case 3:
            for x in 0..<width { store(load(x) | 0xFF00_0000, x) }
        case 2:
            for x in 0..<width {
                let word = load(x)
                let grey = word & 0xFF
                store(grey &* 0x01_0101 | (word & 0xFF00) << 16, x)
            }
        default:
            for x in 0..<width { store((load(x) & 0xFF) &* 0x01_0101 | 0xFF00_0000, x) }
        }
    }
}
