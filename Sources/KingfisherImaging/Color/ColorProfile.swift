// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// An ICC colour profile: the colour space of an image's pixels when they are not sRGB.
///
/// Decoded images are converted to sRGB and carry no profile, unless
/// ``ImageCreatingOptions/preserveColorProfile`` asks to keep the source's colours as they are;
/// the image then carries its profile in ``KingfisherImage/colorProfile`` and the encoders
/// embed it (PNG `iCCP`, JPEG `APP2`, WebP `ICCP`, AVIF `colr`).
public struct ColorProfile: Sendable, Hashable, CustomStringConvertible {
    /// The profile's bytes, as embedded in image files.
    public let iccData: Data
    /// The profile's description, e.g. "Display P3"; empty when it has none.
    public let name: String

    /// Reads a profile from ICC bytes; `nil` when they are not a profile LittleCMS can use (or
    /// are over 4 MiB).
    public init?(iccData: Data) {
        guard let profile = LittleCMS.openProfile(iccData) else { return nil }
        self.iccData = iccData
        name = profile.name
    }

    /// The name, or "ICC profile (N bytes)" when it has none.
    public var description: String {
        name.isEmpty ? "ICC profile (\(iccData.count) bytes)" : name
    }

    public static func == (a: ColorProfile, b: ColorProfile) -> Bool { a.iccData == b.iccData }
    public func hash(into hasher: inout Hasher) { hasher.combine(iccData) }
}
