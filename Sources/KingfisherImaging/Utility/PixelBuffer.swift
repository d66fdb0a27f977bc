// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Allocation of pixel storage without zero-filling it first: decoders overwrite every byte, and
/// clearing a 48 MB buffer before decoding into it would cost as much as a fast decode step.
enum PixelBuffer {
    /// Bytes per RGBA pixel.
    static let bytesPerPixel = 4

    /// Returns `count` bytes written entirely by `fill`, which receives the uninitialised storage.
    /// `fill` must write every byte (or throw).
    static func make(
        count: Int,
        _ fill: (UnsafeMutablePointer<UInt8>) throws -> Void
    ) rethrows -> [UInt8] {
        PixelAllocationRecord.current?.note(count)
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            try fill(buffer.baseAddress!)
            initialized = count
        }
    }
}
