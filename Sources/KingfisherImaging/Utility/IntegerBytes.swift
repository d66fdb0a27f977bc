// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

extension FixedWidthInteger {
    /// The integer's bytes, most significant first (PNG, JPEG and ISO BMFF fields).
    var bigEndianBytes: [UInt8] { withUnsafeBytes(of: bigEndian, Array.init) }

    /// The integer's bytes, least significant first (a little-endian TIFF block).
    var littleEndianBytes: [UInt8] { withUnsafeBytes(of: littleEndian, Array.init) }
}
