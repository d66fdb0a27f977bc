// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Reads the orientation tag from EXIF (TIFF-structured) metadata.
enum EXIFReader {
    /// The orientation tag (0x0112).
    static let orientationTag = 0x0112

    /// The orientation in a TIFF-structured block (`II*\0` or `MM\0*` header), or `.up` when the
    /// block is malformed, has no orientation tag, or is larger than `maxByteCount` (ignored
    /// unread). A leading `Exif\0\0` is skipped.
    static func orientation(tiff bytes: UnsafeRawBufferPointer, maxByteCount: Int) -> ImageOrientation {
        guard let layout = TIFFLayout(bytes), layout.bytes.count <= maxByteCount,
            let entry = layout.entries(ofDirectoryAt: layout.firstDirectory)[orientationTag], entry.type == 3,
            let value = layout.u16(entry.valueOffset)
        else { return .up }
        return ImageOrientation(rawValue: value) ?? .up
    }
}
