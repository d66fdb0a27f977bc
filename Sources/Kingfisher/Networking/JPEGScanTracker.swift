// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Follows a JPEG's markers as its bytes arrive, to find where each scan (`SOS`) starts: the
/// bytes before a scan's start hold every scan before it complete, which is what a preview
/// decodes. Segments are skipped by their length and entropy-coded data by its marker rules
/// (`FF 00` is a stuffed byte, `FF D0`–`D7` restart markers), so an `FF DA` inside an EXIF
/// thumbnail or in the entropy data is never taken for a scan.
package struct JPEGScanTracker: Sendable {
    /// Offsets of the `SOS` markers found so far.
    package private(set) var scanStarts: [Int] = []
    /// Whether the frame is progressive (`SOF2`); `nil` until a frame header is read.
    package private(set) var isProgressive: Bool?
    /// The frame's size from its header, once read.
    package private(set) var width = 0
    package private(set) var height = 0
    /// Set when the bytes are not a well-formed JPEG: tracking stops.
    package private(set) var gaveUp = false
    private var offset = 0
    private var inEntropyData = false

    /// A tracker at the start of a body.
    package init() {}

    /// Reads `data` on from where the last call stopped; `data` is the whole body so far.
    package mutating func advance(over data: Data) {
        guard !gaveUp else { return }
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let byte = bytes.bindMemory(to: UInt8.self)
            if offset == 0 {
                guard byte.count >= 2 else { return }
                guard byte[0] == 0xFF, byte[1] == 0xD8 else {
                    gaveUp = true
                    return
                }
                offset = 2
            }
            while offset < byte.count, !gaveUp {
                if inEntropyData {
                    guard let marker = nextMarker(in: byte) else { return }
                    offset = marker
                    inEntropyData = false
                } else if !readSegment(in: byte) {
                    return
                }
            }
        }
    }

    /// The offset of the next marker in entropy-coded data, or `nil` (with `offset` moved on)
    /// when the data so far has none.
    private mutating func nextMarker(in byte: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = offset
        while index + 1 < byte.count {
            if byte[index] != 0xFF {
                index += 1
                continue
            }
            let next = byte[index + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) {
                index += 2
                continue
            }
            if next == 0xFF {
                index += 1
                continue
            }
            return index
        }
        offset = index
        return nil
    }

    /// Reads the marker segment at `offset`; `false` when its bytes have not all arrived.
    private mutating func readSegment(in byte: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset + 1 < byte.count else { return false }
        guard byte[offset] == 0xFF else {
            gaveUp = true
            return false
        }
        let marker = byte[offset + 1]
        switch marker {
        case 0xFF:
            offset += 1
            return true  // fill byte
        case 0xD8, 0x01, 0xD0...0xD7:
            offset += 2
            return true  // no length
        case 0xD9:
            gaveUp = true
            return false  // end of image
        default: break
        }
        guard offset + 3 < byte.count else { return false }
        let length = Int(byte[offset + 2]) << 8 | Int(byte[offset + 3])
        guard length >= 2 else {
            gaveUp = true
            return false
        }
        switch marker {
        case 0xC0, 0xC1, 0xC2:
            guard offset + 8 < byte.count else { return false }
            isProgressive = marker == 0xC2
            height = Int(byte[offset + 5]) << 8 | Int(byte[offset + 6])
            width = Int(byte[offset + 7]) << 8 | Int(byte[offset + 8])
        case 0xDA:
            scanStarts.append(offset)
            inEntropyData = true
        default: break
        }
        offset += 2 + length
        return true
    }
}
