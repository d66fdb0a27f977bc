// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CLCMS2
import Foundation

/// A LittleCMS transform to sRGB, for the profiles ``MatrixShaperTransform`` cannot evaluate:
/// CMYK, CIE L*a*b*, and profiles with lookup tables (where the perceptual intent is used, as the profile's
/// maker intended for photos).
final class LCMSTransform: PixelColorTransform, @unchecked Sendable {
    /// What the pixels handed to ``convert(_:count:)`` hold.
    enum Input: Hashable, Sendable {
        /// RGBA8 (alpha copied through).
        case rgba
        /// CMYK8; `inverted` as Adobe's applications write it in JPEG (0 = full ink).
        case cmyk(inverted: Bool)
        /// CIE L*a*b* in 8 bits and alpha (copied through): L 0-255 for 0-100, a and b + 128.
        case lab
    }

    /// CIE L*a*b* (D50, as TIFF and ICC define it) to sRGB, white adapted to sRGB's D65.
    static let labToSRGB = LCMSTransform(LittleCMS.lab(), input: .lab)

    private let handle: cmsHTRANSFORM
    private let input: Input

    /// The transform of `profile` to sRGB for `input` pixels; `nil` when LittleCMS refuses it
    /// (a profile of the wrong colour space, for instance).
    init?(_ profile: LittleCMS.Profile, input: Input) {
        let srgb = LittleCMS.sRGB()
        let hasTables = cmsIsCLUT(profile.handle, cmsUInt32Number(INTENT_PERCEPTUAL), cmsUInt32Number(LCMS_USED_AS_INPUT)) != 0
        let intent = hasTables ? INTENT_PERCEPTUAL : INTENT_RELATIVE_COLORIMETRIC
        // No 1-pixel cache: it is shared state, and the transform runs on several threads.
        var flags = KF_FLAGS_BLACKPOINTCOMPENSATION | KF_FLAGS_NOCACHE
        let inputFormat: cmsUInt32Number
        switch input {
        case .rgba:
            // A gray profile reads one channel, not RGBA: gray goes the matrix-shaper way.
            guard profile.colorSpace == cmsSigRgbData else { return nil }
            inputFormat = KF_TYPE_RGBA_8
            flags |= KF_FLAGS_COPY_ALPHA
        case .cmyk(let inverted):
            guard profile.colorSpace == cmsSigCmykData else { return nil }
            inputFormat = inverted ? KF_TYPE_CMYK_8_REV : KF_TYPE_CMYK_8
        case .lab:
            guard profile.colorSpace == cmsSigLabData else { return nil }
            inputFormat = KF_TYPE_LabA_8
            flags |= KF_FLAGS_COPY_ALPHA
        }
        guard
            let handle = cmsCreateTransformTHR(
                LittleCMS.context, profile.handle, inputFormat, srgb.handle,
                KF_TYPE_RGBA_8, cmsUInt32Number(intent), flags)
        else { return nil }
        self.handle = handle
        self.input = input
    }

    deinit {
        cmsDeleteTransform(handle)
    }

    func convert(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        // In place is safe: both layouts are 4 bytes a pixel, and each is read before written.
        cmsDoTransform(handle, pixels, pixels, cmsUInt32Number(count))
        if case .cmyk = input {
            for i in 0..<count { pixels[i * 4 + 3] = 255 }
        }
    }
}
