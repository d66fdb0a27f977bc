// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Rewrites the boxes of an AVIF file that libheif 1.15 or libavif 0.11 misread, into a copy
/// that means the same to a reader that follows the specifications. Sizes and offsets never
/// change: a box is only given its real size or renamed `free`, or entries move within it.
enum AVIFContainerRepair {
    private static let trackBox = BMFFBox.fourCC("trak")

    /// `bytes` with every repair its boxes need, or `nil` when they need none:
    ///
    /// - a last top-level box of size 0 ("to the end of the file", ISO/IEC 14496-12 4.2), which
    ///   both libraries refuse, gets its size written out (when it fits in 32 bits);
    /// - a track that is neither video nor an alpha plane (audio, text, metadata, a depth map),
    ///   which libavif refuses or takes for alpha, becomes a `free` box, as it is to a reader
    ///   of images;
    /// - a grid whose tiles are stored in another order than its `dimg` references has its item
    ///   lists put in that order (``AVIFGridTileOrder``).
    static func repaired(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var copy: [UInt8]?
        let boxes = BMFFBox.sequence(in: bytes, 0..<bytes.count)
        if let last = boxes.last, let size = BMFFBox.integer(bytes, at: last.start, size: 4, within: 0..<bytes.count),
            size == 0, bytes.count - last.start <= Int(UInt32.max)
        {
            let start = last.start
            copy = copy ?? Array(bytes)
            let length = UInt32(bytes.count - start)
            for index in 0..<4 { copy![start + index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * index)) }
        }
        for movie in boxes where movie.type == BMFFBox.fourCC("moov") {
            for track in movie.children(in: bytes) where track.type == trackBox && !isImageTrack(track, bytes) {
                copy = copy ?? Array(bytes)
                let type = track.contents.lowerBound - 4
                copy!.replaceSubrange(type..<type + 4, with: Array("free".utf8))
            }
        }
        AVIFGridTileOrder.repair(bytes, into: &copy)
        return copy
    }

    /// Whether `track` holds pictures: a video track (handler `vide` or `pict`), or an auxiliary
    /// video track (`auxv`) whose `auxi` box names alpha.
    private static func isImageTrack(_ track: BMFFBox, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let media = track.children(in: bytes).first(where: { $0.type == BMFFBox.fourCC("mdia") }),
            let handler = media.children(in: bytes).first(where: { $0.type == BMFFBox.fourCC("hdlr") }),
            let kind = BMFFBox.integer(bytes, at: handler.contents.lowerBound + 8, size: 4, within: handler.contents)
        else { return true }
        switch UInt32(kind) {
        case BMFFBox.fourCC("vide"), BMFFBox.fourCC("pict"):
            return true
        case BMFFBox.fourCC("auxv"):
            // The alpha URN (ISO/IEC 23002-3, MPEG-B CICP) is written in the sample entry's auxi box.
            let contents = UnsafeRawBufferPointer(rebasing: bytes[track.contents])
            return contents.firstRange(of: Array("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha".utf8)) != nil
        default:
            return false
        }
    }
}
