// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The platform colour type. On Apple platforms Kingfisher uses `UIColor` / `NSColor`; on Linux
/// it is ``KingfisherColor``.
public typealias KFCrossPlatformColor = KingfisherColor

/// An sRGB colour with straight alpha, components 0…1.
///
/// Its `description` is Kingfisher's `rgbaDescription` format, `(%.2f,%.2f,%.2f,%.2f)`, which is
/// what processor identifiers (and so cache keys) contain.
public struct KingfisherColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0…1.
    public var red: CGFloat
    /// Green, 0…1.
    public var green: CGFloat
    /// Blue, 0…1.
    public var blue: CGFloat
    /// Alpha (opacity), 0…1.
    public var alpha: CGFloat

    /// Creates a colour; components are clamped to 0…1.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1) {
        func clamp(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, 0), 1) }
        self.red = clamp(red)
        self.green = clamp(green)
        self.blue = clamp(blue)
        self.alpha = clamp(alpha)
    }

    /// Creates a gray colour.
    public init(white: CGFloat, alpha: CGFloat = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional, case-insensitive).
    /// Returns `nil` for anything else.
    public init?(hex: String) {
        var digits = Substring(hex.trimmingCharacters(in: .whitespaces))
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard [3, 4, 6, 8].contains(digits.count), let value = UInt32(digits, radix: 16) else { return nil }
        let short = digits.count <= 4
        let count = short ? digits.count : digits.count / 2
        let bits = short ? 4 : 8
        let maximum = CGFloat((1 << bits) - 1)
        var components: [CGFloat] = (0..<count).map { index in
            CGFloat((value >> UInt32((count - 1 - index) * bits)) & UInt32((1 << bits) - 1)) / maximum
        }
        if components.count == 3 { components.append(1) }
        self.init(red: components[0], green: components[1], blue: components[2], alpha: components[3])
    }

    /// Kingfisher's identifier form of the colour: `(%.2f,%.2f,%.2f,%.2f)`.
    public var rgbaDescription: String {
        String(format: "(%.2f,%.2f,%.2f,%.2f)", red, green, blue, alpha)
    }

    /// Same as ``rgbaDescription``.
    public var description: String { rgbaDescription }

    /// `#RRGGBBAA`.
    public var hexString: String {
        String(format: "#%02X%02X%02X%02X", rgba8.r, rgba8.g, rgba8.b, rgba8.a)
    }

    /// The components as bytes, rounded.
    var rgba8: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        (
            UInt8((red * 255).rounded()), UInt8((green * 255).rounded()), UInt8((blue * 255).rounded()),
            UInt8((alpha * 255).rounded())
        )
    }

    /// Opaque black.
    public static let black = KingfisherColor(white: 0)
    /// Opaque white.
    public static let white = KingfisherColor(white: 1)
    /// Opaque 50% gray.
    public static let gray = KingfisherColor(white: 0.5)
    /// Fully transparent black.
    public static let clear = KingfisherColor(white: 0, alpha: 0)
    /// Opaque red.
    public static let red = KingfisherColor(red: 1, green: 0, blue: 0)
    /// Opaque green.
    public static let green = KingfisherColor(red: 0, green: 1, blue: 0)
    /// Opaque blue.
    public static let blue = KingfisherColor(red: 0, green: 0, blue: 1)
    /// Opaque yellow.
    public static let yellow = KingfisherColor(red: 1, green: 1, blue: 0)
    /// Opaque 2/3 white, as UIKit's `lightGray`.
    public static let lightGray = KingfisherColor(white: 2.0 / 3.0)
    /// Opaque 1/3 white, as UIKit's `darkGray`.
    public static let darkGray = KingfisherColor(white: 1.0 / 3.0)
    /// Opaque cyan.
    public static let cyan = KingfisherColor(red: 0, green: 1, blue: 1)
    /// Opaque magenta.
    public static let magenta = KingfisherColor(red: 1, green: 0, blue: 1)
    /// Opaque orange (1, 0.5, 0), as UIKit's.
    public static let orange = KingfisherColor(red: 1, green: 0.5, blue: 0)
    /// Opaque purple (0.5, 0, 0.5), as UIKit's.
    public static let purple = KingfisherColor(red: 0.5, green: 0, blue: 0.5)
    /// Opaque brown (0.6, 0.4, 0.2), as UIKit's.
    public static let brown = KingfisherColor(red: 0.6, green: 0.4, blue: 0.2)
}
