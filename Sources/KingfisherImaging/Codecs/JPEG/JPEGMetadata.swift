// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What the marker segments of a JPEG before its first scan say about how to read it.
struct JPEGMetadata {
    /// The EXIF orientation (APP1), `.up` when absent.
    var orientation: ImageOrientation = .up
    /// The EXIF block (APP1, after `Exif\0\0`) when present and at most the EXIF limit.
    var exif: UnsafeRawBufferPointer?
    /// Whether an Adobe APP14 segment is present: CMYK data is then stored inverted.
    var hasAdobeMarker = false
    /// The embedded ICC profile, reassembled from its APP2 chunks; `nil` when absent, or when a
    /// chunk is missing, repeated or over ``LittleCMS/maxProfileByteCount`` in all.
    var iccProfile: Data?

    /// APP2 chunks start with this, then a 1-based sequence number and the chunk count.
    private static let iccSignature = Array("ICC_PROFILE\0".utf8)

    /// Walks the marker segments up to the first scan, reading EXIF of at most
    /// `maxEXIFByteCount` bytes. Malformed segments end the walk; the decoder reports real
    /// corruption itself.
    init(jpeg bytes: UnsafeRawBufferPointer, maxEXIFByteCount: Int) {
        var iccChunks: [Int: UnsafeRawBufferPointer] = [:]
        var iccChunkCount = 0
        defer { iccProfile = Self.assemble(iccChunks, count: iccChunkCount) }
        var pos = 2
        while pos + 4 <= bytes.count {
            guard bytes[pos] == 0xFF else { return }
            let marker = bytes[pos + 1]
            if marker == 0xFF {
                pos += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                pos += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return }
            let length = Int(bytes[pos + 2]) << 8 | Int(bytes[pos + 3])
            let start = pos + 4
            let end = pos + 2 + length
            guard length >= 2, end <= bytes.count else { return }
            let segment = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            if marker == 0xE1, segment.count > 6, Array(segment[0..<6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                orientation = EXIFReader.orientation(tiff: segment, maxByteCount: maxEXIFByteCount)
                if segment.count - 6 <= maxEXIFByteCount { exif = UnsafeRawBufferPointer(rebasing: segment[6...]) }
            } else if marker == 0xEE, segment.count >= 5, Array(segment[0..<5]) == Array("Adobe".utf8) {
                hasAdobeMarker = true
            } else if marker == 0xE2, segment.count > 14, segment.prefix(12).elementsEqual(Self.iccSignature) {
                let sequence = Int(segment[12])
                if iccChunks[sequence] != nil { iccChunkCount = -1 }  // a repeated chunk: unusable
                iccChunks[sequence] = UnsafeRawBufferPointer(rebasing: segment[14...])
                if iccChunkCount == 0 { iccChunkCount = Int(segment[13]) }
                if iccChunkCount != Int(segment[13]) { iccChunkCount = -1 }
            }
            pos = end
        }
    }

    private static func assemble(_ chunks: [Int: UnsafeRawBufferPointer], count: Int) -> Data? {
        guard count > 0, chunks.count == count, (1...count).allSatisfy({ chunks[$0] != nil }),
            chunks.values.reduce(0, { $0 + $1.count }) <= LittleCMS.maxProfileByteCount
        else { return nil }
        var profile = Data()
        for sequence in 1...count { profile.append(contentsOf: chunks[sequence]!) }
        return profile
    }
}
