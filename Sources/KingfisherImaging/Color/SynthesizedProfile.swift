// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CLCMS2
import Foundation

/// ICC profiles for colour spaces that files declare by numbers instead of a profile: H.273
/// code points (HEIF/AVIF `nclx`, PNG `cICP`) and PNG's `gAMA`/`cHRM`. Built with LittleCMS so
/// that one conversion path serves every source, and so that a kept colour space can be
/// embedded in the output like any other profile.
enum SynthesizedProfile {
    /// The profile of `space`; `nil` for sRGB, an embedded profile, and spaces that cannot be
    /// described this way (HDR transfers such as PQ and HLG, unknown code points).
    static func iccData(for space: SourceColorSpace) -> Data? {
        switch space {
        case .sRGB, .icc:
            return nil
        case .cicp(let primaries, let transfer):
            guard let chromaticities = chromaticities(h273: primaries), let curve = curve(h273: transfer) else { return nil }
            return make(chromaticities, curve: curve)
        case .calibrated(let gamma, let chromaticities):
            guard gamma > 0.01, gamma < 10 else { return nil }
            return make(chromaticities ?? sRGBChromaticities, curve: .gamma(1 / gamma))
        }
    }

    /// A tone curve from encoded value to linear light.
    enum Curve: Equatable {
        case gamma(Double)
        /// ICC parametric type 4: Y = (aX + b)^g for X ≥ d, else cX.
        case piecewise(g: Double, a: Double, b: Double, c: Double, d: Double)
    }

    static let sRGBChromaticities = SourceColorSpace.Chromaticities(
        white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06))

    /// ITU-T H.273 ColourPrimaries.
    static func chromaticities(h273 code: Int) -> SourceColorSpace.Chromaticities? {
        let d65 = (x: 0.3127, y: 0.3290)
        switch code {
        case 1: return sRGBChromaticities  // BT.709
        case 4: return .init(white: (0.310, 0.316), red: (0.67, 0.33), green: (0.21, 0.71), blue: (0.14, 0.08))  // BT.470M
        case 5: return .init(white: d65, red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06))  // BT.601 625
        case 6, 7: return .init(white: d65, red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070))  // BT.601 525
        case 9: return .init(white: d65, red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046))  // BT.2020
        case 11: return .init(white: (0.314, 0.351), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))  // DCI-P3
        case 12: return .init(white: d65, red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))  // Display P3
        default: return nil
        }
    }

    /// ITU-T H.273 TransferCharacteristics, as the decoding (EOTF-like) curve.
    static func curve(h273 code: Int) -> Curve? {
        switch code {
        case 1, 6, 14, 15:  // BT.709 / BT.601 / BT.2020: the inverse of their camera curve
            return .piecewise(g: 1 / 0.45, a: 1 / 1.099, b: 0.099 / 1.099, c: 1 / 4.5, d: 0.081)
        case 4: return .gamma(2.2)
        case 5: return .gamma(2.8)
        case 8: return .gamma(1)
        case 13: return .piecewise(g: 2.4, a: 1 / 1.055, b: 0.055 / 1.055, c: 1 / 12.92, d: 0.04045)
        default: return nil  // PQ (16) and HLG (18) need tone mapping, not a profile
        }
    }

    private static func make(_ space: SourceColorSpace.Chromaticities, curve: Curve) -> Data? {
        let context = LittleCMS.context
        let toneCurve: OpaquePointer?
        switch curve {
        case .gamma(let exponent):
            toneCurve = cmsBuildGamma(context, exponent)
        case .piecewise(let g, let a, let b, let c, let d):
            let parameters = [g, a, b, c, d]
            toneCurve = cmsBuildParametricToneCurve(context, 4, parameters)
        }
        guard let toneCurve else { return nil }
        defer { cmsFreeToneCurve(toneCurve) }
        var white = cmsCIExyY(x: space.white.x, y: space.white.y, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: space.red.x, y: space.red.y, Y: 1),
            Green: cmsCIExyY(x: space.green.x, y: space.green.y, Y: 1),
            Blue: cmsCIExyY(x: space.blue.x, y: space.blue.y, Y: 1))
        var curves: [OpaquePointer?] = [toneCurve, toneCurve, toneCurve]
        guard let handle = cmsCreateRGBProfileTHR(context, &white, &primaries, &curves) else { return nil }
        return LittleCMS.Profile(handle).iccData()
    }
}
