// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// How a source image is combined with what is under it, with Core Graphics' raw values (which
/// Kingfisher's `BlendImageProcessor` identifier contains). Named `CGBlendMode` so code written
/// against Kingfisher compiles unchanged; on Linux it is this library's own type.
///
/// `normal` … `luminosity` are the separable and non-separable blend modes of the W3C
/// Compositing and Blending specification (source-over compositing); `clear` … `plusLighter`
/// are the Porter-Duff operators.
public enum CGBlendMode: Int32, Sendable, CaseIterable {
    case normal = 0
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion, hue, saturation, color, luminosity
    case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut
    case destinationAtop, xor, plusDarker, plusLighter

    /// The CSS-style name (`"color-dodge"`, `"source-atop"`, …) used by processor specs.
    public var name: String {
        switch self {
        case .normal: return "normal"
        case .multiply: return "multiply"
        case .screen: return "screen"
        case .overlay: return "overlay"
        case .darken: return "darken"
        case .lighten: return "lighten"
        case .colorDodge: return "color-dodge"
        case .colorBurn: return "color-burn"
        case .softLight: return "soft-light"
        case .hardLight: return "hard-light"
        case .difference: return "difference"
        case .exclusion: return "exclusion"
        case .hue: return "hue"
        case .saturation: return "saturation"
        case .color: return "color"
        case .luminosity: return "luminosity"
        case .clear: return "clear"
        case .copy: return "copy"
        case .sourceIn: return "source-in"
        case .sourceOut: return "source-out"
        case .sourceAtop: return "source-atop"
        case .destinationOver: return "destination-over"
        case .destinationIn: return "destination-in"
        case .destinationOut: return "destination-out"
        case .destinationAtop: return "destination-atop"
        case .xor: return "xor"
        case .plusDarker: return "plus-darker"
        case .plusLighter: return "plus-lighter"
        }
    }

    /// The mode with CSS-style `name`, or `nil`.
    public init?(name: String) {
        guard let mode = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = mode
    }
}
