// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CDeflate

/// Writes PNG files byte by byte for tests: 8-bit grey, grey and alpha, RGB or RGBA pixels, each
/// row filtered with a chosen filter (the forward filters written here plainly, per byte, as the
/// PNG specification states them), the zlib stream optionally altered and split into several
/// IDAT chunks, extra chunks before the image data.
package struct PNGBuilder {
    package var width: Int
    package var height: Int
    /// 1, 2, 3 or 4.
    package var channels: Int
    /// `width * height * channels` bytes.
    package var pixels: [UInt8]
    /// The filter type written for row `y`. Default: 0 to 4 in turn.
    package var filterForRow: (Int) -> UInt8 = { UInt8($0 % 5) }
    /// The largest IDAT chunk; the stream is split into as many as needed. Default: one chunk.
    package var imageDataChunkSize = Int.max
    /// Chunks (type, data) written after IHDR.
    package var extraChunks: [(type: String, data: [UInt8])] = []
    /// Changes the zlib stream before it is written. Default: none.
    package var alterStream: ([UInt8]) -> [UInt8] = { $0 }

    /// Random pixels.
    package init(width: Int, height: Int, channels: Int, seed: UInt64) {
        self.width = width
        self.height = height
        self.channels = channels
        var generator = SeededGenerator(state: seed)
        pixels = (0..<(width * height * channels)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// The pixels as RGBA8, as a decoder returns them.
    package var rgba: [UInt8] {
        (0..<(width * height)).flatMap { index -> [UInt8] in
            let p = Array(pixels[(index * channels)..<((index + 1) * channels)])
            switch channels {
            case 1: return [p[0], p[0], p[0], 255]
            case 2: return [p[0], p[0], p[0], p[1]]
            case 3: return p + [255]
            default: return p
            }
        }
    }

    package var colorType: UInt8 { [0, 4, 2, 6][channels - 1] }

    /// The PNG file.
    package var bytes: [UInt8] {
        var file: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        let header = Self.word(width) + Self.word(height) + [8, colorType, 0, 0, 0]
        file += Self.chunk("IHDR", header)
        for extra in extraChunks { file += Self.chunk(extra.type, extra.data) }
        let stream = alterStream(Self.zlibCompress(filteredRows))
        var start = 0
        repeat {
            let end = min(stream.count, start + min(imageDataChunkSize, stream.count - start))
            file += Self.chunk("IDAT", Array(stream[start..<end]))
            start = end
        } while start < stream.count
        return file + Self.chunk("IEND", [])
    }

    private var filteredRows: [UInt8] {
        let rowBytes = width * channels
        var out: [UInt8] = []
        for y in 0..<height {
            let filter = filterForRow(y)
            out.append(filter)
            for i in 0..<rowBytes {
                let x = Int(pixels[y * rowBytes + i])
                let a = i >= channels ? Int(pixels[y * rowBytes + i - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * rowBytes + i]) : 0
                let c = y > 0 && i >= channels ? Int(pixels[(y - 1) * rowBytes + i - channels]) : 0
                let prediction: Int
                switch filter {
                case 1: prediction = a
                case 2: prediction = b
                case 3: prediction = (a + b) / 2
                case 4: prediction = Self.paeth(a, b, c)
                default: prediction = 0
                }
                out.append(UInt8(truncatingIfNeeded: x - prediction))
            }
        }
        return out
    }

    package static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a)
        let pb = abs(p - b)
        let pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    package static func word(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    package static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        let crc = typed.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        return word(data.count) + typed + word(Int(crc))
    }

    package static func zlibCompress(_ data: [UInt8]) -> [UInt8] {
        let compressor = libdeflate_alloc_compressor(6)!
        defer { libdeflate_free_compressor(compressor) }
        var out = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(compressor, data.count))
        let size = data.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        return Array(out.prefix(size))
    }
}
