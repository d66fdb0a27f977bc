// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// How a view moves from its placeholder (or previous image) to a loaded image, as Kingfisher's
/// `ImageTransition`. A description only: the view layer (KingfisherGTK's image views)
/// animates it. Applied to images that did not come from the memory cache, unless
/// ``KingfisherOptionsInfoItem/forceTransition``.
public enum ImageTransition: Sendable {
    /// No animation: the image replaces what was shown at once (the default).
    case none
    /// Cross-fades from what was shown to the image over the duration, in seconds.
    case fade(TimeInterval)
    /// Turns the picture on its vertical axis, its right edge going away first; the image is
    /// on the back.
    case flipFromLeft(TimeInterval)
    /// Turns the picture on its vertical axis, its left edge going away first.
    case flipFromRight(TimeInterval)
    /// Turns the picture on its horizontal axis, its bottom edge going away first.
    case flipFromTop(TimeInterval)
    /// Turns the picture on its horizontal axis, its top edge going away first.
    case flipFromBottom(TimeInterval)

    /// How long the transition runs, in seconds (0 for ``none``).
    public var duration: TimeInterval {
        switch self {
        case .none: return 0
        case .fade(let duration), .flipFromLeft(let duration), .flipFromRight(let duration), .flipFromTop(let duration),
            .flipFromBottom(let duration):
            return duration
        }
    }
}
