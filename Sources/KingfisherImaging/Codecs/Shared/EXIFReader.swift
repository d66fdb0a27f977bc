// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Reads the orientation tag from EXIF (TIFF-structured) metadata, with every offset checked
/// against the buffer: EXIF arrives from the network and is as untrusted as the pixels.
enum EXIFReader {
    /// The orientation in a TIFF-structured block (`II*\0` or `MM\0*` header), or `.up` when the
    /// block is malformed, has no orientation tag, or is larger than `maxByteCount` (ignored
    /// unread). A leading `Exif\0\0` is skipped.
    static func orientation(tiff bytes: UnsafeRawBufferPointer, maxByteCount: Int) -> ImageOrientation {
        var data = bytes
        if data.count >= 6, Array(data[0..<6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
            data = UnsafeRawBufferPointer(rebasing: data[6...])
        }
        guard data.count >= 8, data.count <= maxByteCount else { return .up }
        let littleEndian: Bool
        switch (data[0], data[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return .up
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= data.count else { return nil }
            let a = Int(data[at])
            let b = Int(data[at + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let lo = u16(littleEndian ? at : at + 2), let hi = u16(littleEndian ? at + 2 : at) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return .up }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return .up }
            if tag == 0x0112 {
                guard let type = u16(entry + 2), type == 3, let value = u16(entry + 8) else { return .up }
                return ImageOrientation(rawValue: value) ?? .up
            }
        }
        return .up
    }
}
