// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// How an image is written, beyond its format: what ``KingfisherImage/encoded(as:options:)``
/// takes. Each encoder reads what its format has and ignores the rest.
public struct ImageEncodingOptions: Sendable, Hashable {
    /// 0…1 for lossy formats (JPEG, lossy WebP and AVIF). Default 1.0.
    public var compressionQuality: CGFloat
    /// For WebP and AVIF: encode losslessly, ignoring the quality. Default `false`.
    public var lossless: Bool
    /// A progressive JPEG (several scans, coarse to fine) or an interlaced PNG (Adam7). Default
    /// `false`.
    public var progressive: Bool
    /// 0 (fastest) … 9 (smallest): AVIF's speed (9 - effort, libavif's 0…10 scale squeezed),
    /// WebP's method (effort · 6 / 9), PNG's zlib level. Default `nil`: each format's default
    /// (AVIF speed 8, WebP method 4, zlib level 6).
    public var effort: Int?
    /// EXIF to write into the output (JPEG, PNG, WebP, AVIF, JPEG XL; GIF has no place for it,
    /// nor has JPEG a block over 64 KB). Written as it is: ``EXIFBlock/uprighted`` makes a
    /// source's block right for its decoded pixels. Default `nil`: none.
    public var exif: EXIFBlock?

    /// Options with each default unless given.
    public init(
        compressionQuality: CGFloat = 1.0, lossless: Bool = false, progressive: Bool = false, effort: Int? = nil, exif: EXIFBlock? = nil
    ) {
        self.compressionQuality = compressionQuality
        self.lossless = lossless
        self.progressive = progressive
        self.effort = effort.map { min(max($0, 0), 9) }
        self.exif = exif
    }
}
