// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Which corners of a rectangle are rounded.
public struct RectCorner: OptionSet, Sendable, Hashable {
    /// Raw value: top-left 1, top-right 2, bottom-left 4, bottom-right 8.
    public let rawValue: Int
    /// The top-left corner.
    public static let topLeft = RectCorner(rawValue: 1 << 0)
    /// The top-right corner.
    public static let topRight = RectCorner(rawValue: 1 << 1)
    /// The bottom-left corner.
    public static let bottomLeft = RectCorner(rawValue: 1 << 2)
    /// The bottom-right corner.
    public static let bottomRight = RectCorner(rawValue: 1 << 3)
    /// All four corners.
    public static let all: RectCorner = [.topLeft, .topRight, .bottomLeft, .bottomRight]

    /// Creates a corner set from its raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `""` for `.all`, else `"_corner(<raw>)"`, as in Kingfisher's identifiers.
    var cornerIdentifier: String { self == .all ? "" : "_corner(\(rawValue))" }
}

/// A corner radius: fixed points, or a fraction of the target's width or height.
public enum Radius: Sendable, Hashable {
    /// A fraction of the width (0.5 of a square's side makes a circle).
    case widthFraction(CGFloat)
    /// A fraction of the height.
    case heightFraction(CGFloat)
    /// A radius in points.
    case point(CGFloat)

    /// `"w_frac_<f>"`, `"h_frac_<f>"` or the point value, as in Kingfisher's identifiers.
    var radiusIdentifier: String {
        switch self {
        case .widthFraction(let f): return "w_frac_\(f)"
        case .heightFraction(let f): return "h_frac_\(f)"
        case .point(let p): return p.description
        }
    }

    /// The radius in points for a rectangle of `size`.
    public func compute(with size: CGSize) -> CGFloat {
        switch self {
        case .point(let point): return point
        case .widthFraction(let fraction): return size.width * fraction
        case .heightFraction(let fraction): return size.height * fraction
        }
    }
}

/// How a size adjusts to fit a target size.
public enum ContentMode: Sendable, Hashable {
    /// Take the target size exactly.
    case none
    /// Keep the aspect ratio and fit inside the target.
    case aspectFit
    /// Keep the aspect ratio and cover the target.
    case aspectFill
}

/// A border drawn inside an image's edges.
public struct Border: Sendable, Hashable {
    /// The border's colour. Default black.
    public var color: KFCrossPlatformColor
    /// The line width in points. Default 4.
    public var lineWidth: CGFloat
    /// The corner radius of the border's outer edge. Default `.point(0)`.
    public var radius: Radius
    /// Which corners are rounded. Default `.all`.
    public var roundingCorners: RectCorner

    /// Creates a border; every parameter defaults as documented on its property.
    public init(
        color: KFCrossPlatformColor = .black, lineWidth: CGFloat = 4, radius: Radius = .point(0),
        roundingCorners: RectCorner = .all
    ) {
        self.color = color
        self.lineWidth = lineWidth
        self.radius = radius
        self.roundingCorners = roundingCorners
    }

    /// `"<rgba>_<lineWidth>_<radius>_<corners>"`, as in Kingfisher.
    var identifier: String {
        "\(color.rgbaDescription)_\(lineWidth)_\(radius.radiusIdentifier)_\(roundingCorners.cornerIdentifier)"
    }
}
