// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Which part of an image a crop keeps: a fixed place, a focal point, or the part found
/// interesting, as imgproxy's and thumbor's gravities say.
public enum CropGravity: Sendable, Hashable {
    /// Kingfisher's anchor: the point of the crop, as fractions of its size, that sits on the
    /// same point of the image ((0, 0) keeps the top-left corner, (0.5, 0.5) the centre).
    case anchor(CGPoint)
    /// A focal point, as fractions of the image's size: the crop is centred on it as far as the
    /// image allows.
    case focus(CGPoint)
    /// The most salient region (edges, skin tones, saturation), as libvips' `attention`:
    /// imgproxy's `sm`, thumbor's `smart`.
    case attention
    /// The region with the most detail (the entropy of its luma), as libvips' `entropy`.
    case entropy

    /// The centre. The default.
    public static let center = CropGravity.anchor(CGPoint(x: 0.5, y: 0.5))
    /// The middle of the top edge.
    public static let north = CropGravity.anchor(CGPoint(x: 0.5, y: 0))
    /// The middle of the bottom edge.
    public static let south = CropGravity.anchor(CGPoint(x: 0.5, y: 1))
    /// The middle of the right edge.
    public static let east = CropGravity.anchor(CGPoint(x: 1, y: 0.5))
    /// The middle of the left edge.
    public static let west = CropGravity.anchor(CGPoint(x: 0, y: 0.5))
    /// The top-right corner.
    public static let northEast = CropGravity.anchor(CGPoint(x: 1, y: 0))
    /// The top-left corner.
    public static let northWest = CropGravity.anchor(CGPoint(x: 0, y: 0))
    /// The bottom-right corner.
    public static let southEast = CropGravity.anchor(CGPoint(x: 1, y: 1))
    /// The bottom-left corner.
    public static let southWest = CropGravity.anchor(CGPoint(x: 0, y: 1))

    /// The gravities by their names in the processing grammar (imgproxy's, with `center`
    /// spelled out): `center`, `north`, `south`, `east`, `west`, `ne`, `nw`, `se`, `sw`, `smart`
    /// and `entropy`; a focal point is written `focus:X:Y`.
    public static let named: [(name: String, gravity: CropGravity)] = [
        ("center", .center), ("north", .north), ("south", .south), ("east", .east), ("west", .west),
        ("ne", .northEast), ("nw", .northWest), ("se", .southEast), ("sw", .southWest), ("smart", .attention),
        ("entropy", .entropy),
    ]

    /// The gravity `text` names in the grammar (see ``named``, and `focus:X:Y` with X and Y in
    /// 0…1), or `nil`.
    public init?(grammarName text: String) {
        if let match = Self.named.first(where: { $0.name == text }) {
            self = match.gravity
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "focus", let x = Double(parts[1]), let y = Double(parts[2]),
            (0...1).contains(x), (0...1).contains(y)
        else { return nil }
        self = .focus(CGPoint(x: x, y: y))
    }

    /// The gravity's part of a processor identifier: its anchor for an anchor, else `focus(x, y)`,
    /// `attention` or `entropy`.
    var identifierDescription: String {
        switch self {
        case .anchor(let anchor): anchor.identifierDescription
        case .focus(let point): "focus\(point.identifierDescription)"
        case .attention: "attention"
        case .entropy: "entropy"
        }
    }
}
