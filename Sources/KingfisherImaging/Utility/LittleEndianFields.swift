// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

extension UnsafeRawBufferPointer {
    /// The little-endian integer of type `T` at byte `offset`, or `nil` when it would reach past
    /// either end of the buffer (headers of BMP and ICO files are little-endian and untrusted).
    func littleEndian<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T? {
        guard offset >= 0, count >= MemoryLayout<T>.size, offset <= count - MemoryLayout<T>.size else { return nil }
        return T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
