// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Kingfisher's `GIFAnimatedImage`, for its frame-duration helper. GIFs decode through
/// ``KingfisherImage/decode(data:options:)`` here, which reads each frame's delay itself.
public final class GIFAnimatedImage: Sendable {
    private init() {}

    /// A frame's duration from an ImageIO GIF property dictionary, as Kingfisher reads it: the
    /// `UnclampedDelayTime`, else the `DelayTime`; 0.1 s when neither is there or it is at most
    /// 0.011 s (what browsers do with such delays).
    public static func getFrameDuration(from gifInfo: [String: Any]?) -> TimeInterval {
        let defaultDuration = 0.1
        let delay = (gifInfo?["UnclampedDelayTime"] ?? gifInfo?["DelayTime"]).flatMap(Self.seconds)
        guard let delay, delay > 0.011 else { return defaultDuration }
        return delay
    }

    private static func seconds(_ value: Any) -> Double? {
        switch value {
        case let number as NSNumber: return number.doubleValue
        case let double as Double: return double
        case let float as Float: return Double(float)
        case let int as Int: return Double(int)
        default: return nil
        }
    }
}
