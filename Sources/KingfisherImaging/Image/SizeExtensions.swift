// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension KingfisherWrapper where Base == CGSize {
    /// The size `base` should take to be shown in `size` with `contentMode`: `size` itself for
    /// `.none`, ``constrained(_:)`` for `.aspectFit`, ``filling(_:)`` for `.aspectFill`.
    public func resize(to size: CGSize, for contentMode: ContentMode) -> CGSize {
        switch contentMode {
        case .aspectFit: return constrained(size)
        case .aspectFill: return filling(size)
        case .none: return size
        }
    }

    /// The largest size with `base`'s aspect ratio that fits in `size` (sides rounded).
    public func constrained(_ size: CGSize) -> CGSize {
        let aspectWidth = (aspectRatio * size.height).rounded()
        let aspectHeight = (size.width / aspectRatio).rounded()
        return aspectWidth > size.width
            ? CGSize(width: size.width, height: aspectHeight)
            : CGSize(width: aspectWidth, height: size.height)
    }

    /// The smallest size with `base`'s aspect ratio that covers `size` (sides rounded).
    public func filling(_ size: CGSize) -> CGSize {
        let aspectWidth = (aspectRatio * size.height).rounded()
        let aspectHeight = (size.width / aspectRatio).rounded()
        return aspectWidth < size.width
            ? CGSize(width: size.width, height: aspectHeight)
            : CGSize(width: aspectWidth, height: size.height)
    }

    /// The rectangle of `size` placed in `base` at `anchor` (each coordinate clamped to 0…1:
    /// (0, 0) top-left, (0.5, 0.5) centre, (1, 1) bottom-right), intersected with `base`.
    public func constrainedRect(for size: CGSize, anchor: CGPoint) -> CGRect {
        let ax = min(max(anchor.x, 0), 1)
        let ay = min(max(anchor.y, 0), 1)
        let rect = CGRect(
            x: ax * base.width - ax * size.width, y: ay * base.height - ay * size.height,
            width: size.width, height: size.height)
        return CGRect(origin: .zero, size: base).intersection(rect)
    }

    private var aspectRatio: CGFloat {
        base.height == 0 ? 1 : base.width / base.height
    }
}

extension CGSize {
    /// `(width, height)`, as Apple platforms print a `CGSize`, so identifiers (cache keys) match
    /// Kingfisher's there; Linux Foundation prints `CGSize(width:height:)` instead.
    var identifierDescription: String { "(\(width), \(height))" }
}

extension CGFloat {
    /// A length in whole pixels from a computed one: rounded as `rule` says, limited to
    /// 1...Int32.max, and 1 when not finite (so that no size from outside traps converting).
    func pixelLength(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        let pixels = rounded(rule)
        return pixels.isFinite ? Int(Swift.min(Swift.max(pixels, 1), CGFloat(Int32.max))) : 1
    }
}

extension CGPoint {
    /// `(x, y)`, as Apple platforms print a `CGPoint`.
    var identifierDescription: String { "(\(x), \(y))" }
}
