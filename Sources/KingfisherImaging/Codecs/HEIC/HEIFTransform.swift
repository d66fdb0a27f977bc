// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// HEIF's transformative item properties `irot` and `imir` (ISO/IEC 23008-12 6.5.10, 6.5.12),
/// which HEIF and AVIF files use instead of EXIF orientation: a reader shows the stored pixels
/// turned anticlockwise by `irot`, then mirrored by `imir`.
struct HEIFTransform: Equatable {
    /// The `imir` mirror, applied after the rotation.
    enum Mirror: Equatable {
        /// Mode 0: the top and bottom parts are exchanged.
        case topBottom
        /// Mode 1: the left and right parts are exchanged.
        case leftRight
    }

    /// `irot`'s angle: quarter turns anticlockwise, 0...3.
    var anticlockwiseQuarterTurns: Int
    var mirror: Mirror?

    /// The EXIF orientation that brings the stored pixels upright in the same way.
    var orientation: ImageOrientation {
        switch (anticlockwiseQuarterTurns & 3, mirror) {
        case (0, nil): return .up
        case (0, .leftRight?), (2, .topBottom?): return .upMirrored
        case (0, .topBottom?), (2, .leftRight?): return .downMirrored
        case (1, nil): return .left
        case (1, .topBottom?), (3, .leftRight?): return .leftMirrored
        case (1, .leftRight?), (3, .topBottom?): return .rightMirrored
        case (2, nil): return .down
        default: return .right  // (3, nil)
        }
    }
}
