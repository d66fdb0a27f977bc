// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// One ISO-BMFF box (ISO/IEC 14496-12 4.2) in a byte buffer. HEIF, AVIF and JPEG XL's container
/// are sequences of boxes; the decoders read a few of them directly for what their libraries do
/// not say (whether the data was cut short, the canvas of a HEIF grid).
struct BMFFBox {
    /// The four-character type as a big-endian integer (see ``fourCC(_:)``).
    let type: UInt32
    /// Where the box's header starts.
    let start: Int
    /// The box's contents (after its header), clipped to the range it was read from.
    let contents: Range<Int>
    /// Where the box's header says it ends: past the range when the data ends early.
    let declaredEnd: Int

    /// A four-character code as a big-endian integer.
    static func fourCC(_ code: StaticString) -> UInt32 {
        precondition(code.utf8CodeUnitCount == 4)
        return code.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    /// The boxes one after another in `range` of `bytes`, up to the first header that does not fit
    /// or declares a size smaller than itself. A box of size 0 extends to the end of `range`.
    static func sequence(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> [BMFFBox] {
        var boxes: [BMFFBox] = []
        var position = range.lowerBound
        while let size32 = integer(bytes, at: position, size: 4, within: range),
            let type = integer(bytes, at: position + 4, size: 4, within: range)
        {
            var header = 8
            var size = size32
            if size32 == 1 {
                guard let large = integer(bytes, at: position + 8, size: 8, within: range) else { break }
                header = 16
                size = large
            } else if size32 == 0 {
                size = range.upperBound - position
            }
            guard size >= header else { break }
            let (end, overflow) = position.addingReportingOverflow(size)
            if overflow { break }
            boxes.append(
                BMFFBox(
                    type: UInt32(type), start: position, contents: (position + header)..<min(end, range.upperBound),
                    declaredEnd: end))
            if end >= range.upperBound { break }
            position = end
        }
        return boxes
    }

    /// The boxes inside this one, skipping `skip` leading bytes (4 for a FullBox's version and flags).
    func children(in bytes: UnsafeRawBufferPointer, skip: Int = 0) -> [BMFFBox] {
        guard contents.count >= skip else { return [] }
        return Self.sequence(in: bytes, (contents.lowerBound + skip)..<contents.upperBound)
    }

    /// Whether the top-level boxes of `bytes` announce more bytes than there are, or the data stops
    /// inside a box header: how a cut-off file looks, told apart from a damaged one.
    static func isTruncated(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let boxes = sequence(in: bytes, 0..<bytes.count)
        guard let last = boxes.last else { return bytes.count < 8 }
        return last.declaredEnd > bytes.count || (bytes.count - last.declaredEnd > 0 && bytes.count - last.declaredEnd < 8)
    }

    /// The big-endian unsigned integer of `size` bytes (at most 8) at `offset`, or `nil` when it does
    /// not lie within `range` or does not fit in an `Int`.
    static func integer(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int, within range: Range<Int>) -> Int? {
        guard size <= 8, offset >= range.lowerBound, offset <= range.upperBound - size else { return nil }
        var value: UInt64 = 0
        for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}
