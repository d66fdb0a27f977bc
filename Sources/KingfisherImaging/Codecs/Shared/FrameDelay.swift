// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Kingfisher's rule for animation frame delays (GIF and WebP): a delay of 0.011 s or less is
/// shown for 0.1 s, as browsers and ImageIO do.
enum FrameDelay {
    static func duration(seconds: TimeInterval) -> TimeInterval {
        seconds <= 0.011 ? 0.1 : seconds
    }
}
