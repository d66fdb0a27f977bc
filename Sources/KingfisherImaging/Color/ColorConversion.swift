// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CLCMS2
import Foundation

/// Brings decoded pixels to sRGB, the colour space every consumer of this library assumes
/// (browsers treat untagged images as sRGB), with one transform per profile built once and
/// reused: a server sees the same few profiles (Display P3, Adobe RGB, sRGB) in most photos.
enum ColorConversion {
    /// A transform as cached: `identity` for profiles that are sRGB already (many JPEGs embed
    /// one), `unusable` for profiles that cannot be applied (the pixels are then taken as sRGB,
    /// as browsers do).
    private enum Cached {
        case identity
        case unusable
        case transform(any PixelColorTransform)
    }

    /// The profile's bytes as an array, not `Data`: a `Data` keeps the case of its storage in
    /// the spare bits of the storage pointer, which LeakSanitizer then does not recognise, so
    /// every cached profile was reported as leaked.
    private struct Key: Hashable {
        var icc: [UInt8]
        var input: LCMSTransform.Input
    }

    /// The most transforms kept: a CLUT transform holds up to a few hundred KB.
    private static let capacity = 32
    private static let transforms = Locked([Key: Cached]())
    /// Profiles built from numbers, as arrays for the reason ``Key`` gives.
    private static let synthesized = Locked([(space: SourceColorSpace, icc: [UInt8]?)]())

    /// Converts every frame of `decoded` (those decoded on demand as they are made) to sRGB and
    /// marks it sRGB; with `preserve`, leaves the
    /// pixels as they are and returns the profile they are in instead (`nil` for sRGB).
    static func apply(to decoded: inout DecodedImage, preserve: Bool) -> ColorProfile? {
        guard decoded.colorSpace != .sRGB, let icc = iccData(for: decoded.colorSpace) else {
            decoded.colorSpace = .sRGB
            return nil
        }
        if preserve {
            return ColorProfile(iccData: icc)
        }
        if let transform = transform(icc: icc, input: .rgba) {
            for index in decoded.frames.indices {
                var pixels = decoded.frames[index].pixels
                let duration = decoded.frames[index].duration
                // Drop the frame's reference so that `pixels` is unique and changes in place.
                decoded.frames[index] = ImageFrame(pixels: [], duration: duration)
                pixels.withUnsafeMutableBufferPointer { transform.convertInParallel($0.baseAddress!, count: $0.count / 4) }
                decoded.frames[index] = ImageFrame(pixels: pixels, duration: duration)
            }
            if let finish = decoded.onDemand?.finish {
                decoded.onDemand?.finish = { canvas in
                    var pixels = finish(canvas)
                    pixels.withUnsafeMutableBufferPointer { transform.convertInParallel($0.baseAddress!, count: $0.count / 4) }
                    return pixels
                }
            }
        }
        decoded.colorSpace = .sRGB
        return nil
    }

    /// The ICC bytes describing `space`: the embedded profile, or one built from the file's
    /// numbers (cached: building takes about a millisecond); `nil` for sRGB or what cannot be
    /// described.
    static func iccData(for space: SourceColorSpace) -> Data? {
        switch space {
        case .sRGB: return nil
        case .icc(let data): return data
        case .cicp, .calibrated:
            if let known = synthesized.withLock({ $0.first { $0.space == space } }) { return known.icc.map { Data($0) } }
            let icc = SynthesizedProfile.iccData(for: space)
            synthesized.withLock { entries in
                if entries.count >= capacity { entries.removeFirst() }
                entries.append((space, icc.map { [UInt8]($0) }))
            }
            return icc
        }
    }

    /// The transform from the profile `icc` to sRGB for `input` pixels; `nil` when none is
    /// needed (the profile is sRGB) or possible (it is broken or of another colour space).
    static func transform(icc: Data, input: LCMSTransform.Input) -> (any PixelColorTransform)? {
        let key = Key(icc: [UInt8](icc), input: input)
        let cached =
            transforms.withLock { $0[key] }
            ?? {
                let made = make(key)
                transforms.withLock { cache in
                    // Dropping everything at the limit is simpler than LRU order and, with 32 slots
                    // for a handful of real-world profiles, almost never happens.
                    if cache.count >= capacity { cache.removeAll() }
                    cache[key] = made
                }
                return made
            }()
        if case .transform(let transform) = cached { return transform }
        return nil
    }

    private static func make(_ key: Key) -> Cached {
        guard let profile = LittleCMS.openProfile(Data(key.icc)) else { return .unusable }
        if key.input == .rgba, cmsIsCLUT(profile.handle, cmsUInt32Number(INTENT_PERCEPTUAL), cmsUInt32Number(LCMS_USED_AS_INPUT)) == 0,
            let matrixShaper = MatrixShaperTransform(profile)
        {
            return matrixShaper.isIdentity ? .identity : .transform(matrixShaper)
        }
        return LCMSTransform(profile, input: key.input).map { .transform($0) } ?? .unusable
    }
}

extension KingfisherImage {
    /// This image with its pixels converted to sRGB when it carries a ``colorProfile`` (every
    /// frame, as it is asked for); itself when it has none.
    func convertedToSRGB() -> KingfisherImage {
        guard let colorProfile else { return self }
        let transform = ColorConversion.transform(icc: colorProfile.iccData, input: .rgba)
        return mappingFrames(width: pixelWidth, height: pixelHeight, convertingToSRGB: true) { frame in
            guard let transform else { return frame }
            var pixels = frame
            pixels.withUnsafeMutableBufferPointer { transform.convertInParallel($0.baseAddress!, count: $0.count / 4) }
            return pixels
        }
    }
}
