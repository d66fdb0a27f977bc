// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CLCMS2
import Foundation

/// The one LittleCMS context of the library: lcms2 prints its errors to stderr unless a context
/// has a log handler, and a hostile file must not write to a server's log, so every profile is
/// opened here, where errors go nowhere (the caller sees `nil` and reports it).
enum LittleCMS {
    /// The context, made once; lcms2 contexts are safe to share once set up.
    nonisolated(unsafe) static let context: cmsContext? = {
        let context = cmsCreateContext(nil, nil)
        cmsSetLogErrorHandlerTHR(context) { _, _, _ in }
        return context
    }()

    /// The largest ICC profile accepted: 4 MiB. Real profiles are a few KB (matrix-shaper) to a
    /// few hundred KB (printer CLUTs); a JPEG can chain 255 APP2 segments to claim 16 MB.
    static let maxProfileByteCount = 4 << 20

    /// Opens an ICC profile from its bytes; `nil` when they are not a usable profile.
    static func openProfile(_ data: Data) -> Profile? {
        guard data.count >= 132, data.count <= maxProfileByteCount else { return nil }
        let handle = data.withUnsafeBytes { bytes in
            cmsOpenProfileFromMemTHR(context, bytes.baseAddress, cmsUInt32Number(bytes.count))
        }
        return handle.map(Profile.init)
    }

    /// The sRGB profile lcms2 builds (IEC 61966-2.1 primaries and curve).
    static func sRGB() -> Profile {
        Profile(cmsCreate_sRGBProfileTHR(context))
    }

    /// The CIE L*a*b* profile for a D50 white point, the ICC connection space's.
    static func lab() -> Profile {
        Profile(cmsCreateLab4ProfileTHR(context, nil))
    }

    /// An open profile, closed when released.
    final class Profile: @unchecked Sendable {
        let handle: cmsHPROFILE

        init(_ handle: cmsHPROFILE) {
            self.handle = handle
        }

        deinit {
            cmsCloseProfile(handle)
        }

        /// The profile's colour space (`cmsSigRgbData`, `cmsSigCmykData`, `cmsSigGrayData`, …).
        var colorSpace: cmsColorSpaceSignature { cmsGetColorSpace(handle) }

        /// The description tag in English, or "" when there is none.
        var name: String {
            let count = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", nil, 0)
            guard count > 1 else { return "" }
            var buffer = [CChar](repeating: 0, count: Int(count))
            cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, count)
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// The profile serialised as ICC bytes.
        func iccData() -> Data? {
            var size: cmsUInt32Number = 0
            guard cmsSaveProfileToMem(handle, nil, &size) != 0, size > 0 else { return nil }
            var data = Data(count: Int(size))
            let saved = data.withUnsafeMutableBytes { cmsSaveProfileToMem(handle, $0.baseAddress, &size) }
            return saved != 0 ? data : nil
        }
    }
}
