// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// An image laid over others by ``WatermarkImageProcessor``, under a name: what a service's
/// settings (`--watermark NAME=PATH`) and the grammar's `watermark(NAME)` refer to.
public struct Watermark: Sendable {
    /// The name the grammar uses.
    public let name: String
    /// The image, drawn at its size in points unless a scale is asked for.
    public let image: KingfisherImage
    /// The name and a digest of the pixels, for processor identifiers: results made with
    /// another image under the same name are other results.
    let identity: String

    /// A watermark of `image` called `name`.
    public init(name: String, image: KingfisherImage) {
        self.name = name
        self.image = image
        // FNV-1a over the first frame's pixels and size: cheap, and only told apart from itself.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in image.pixels {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        identity = "\(name)@\(image.pixelWidth)x\(image.pixelHeight)#\(String(hash, radix: 16))"
    }
}

/// Where ``WatermarkImageProcessor`` puts its watermark.
public enum WatermarkPosition: Sendable, Hashable {
    /// Once, at a side, a corner or the centre: the point of the watermark, as fractions of its
    /// size, that sits on the same point of the image (as ``CropGravity/anchor(_:)``).
    case anchor(CGPoint)
    /// Repeated across the whole image from its top-left corner.
    case tile

    /// The positions by their names in the processing grammar: `center`, `north`, `south`,
    /// `east`, `west`, `ne`, `nw`, `se`, `sw` and `tile`.
    public static let named: [(name: String, position: WatermarkPosition)] =
        CropGravity.named.compactMap { entry in
            if case .anchor(let point) = entry.gravity { return (entry.name, .anchor(point)) }
            return nil
        } + [("tile", .tile)]
}
