// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CLCMS2
import Foundation

/// The conversion of a matrix-shaper profile (three tone curves and a 3x3 matrix, as Adobe RGB,
/// Display P3, ProPhoto and every camera's RGB profile are) to sRGB, evaluated in Swift.
///
/// LittleCMS converts 12 MP in ~180 ms here, three times as long as decoding the JPEG; this does
/// the same arithmetic (relative colorimetric: source curves to linear light, source colorants to
/// sRGB's through D50 XYZ, clip, sRGB's curve) with lookup tables in a fraction of that.
/// Black-point compensation is the identity for such profiles, whose black is 0. The tables are
/// built from the profile by LittleCMS itself, so the curves are read exactly as it reads them.
///
/// Each input channel's table holds that channel's contribution to all three output channels,
/// in fixed point, packed into one 64-bit word (21 bits each): a pixel costs three table loads
/// and two additions instead of nine multiplications, and the packed sums never carry from one
/// field into the next because every field's total is kept within 0..<2^21 by a bias.
///
/// A field is encoded by one load from a table indexed by the biased value itself, which holds
/// the clipping too: no comparisons per channel, and twice the speed of clamping first and
/// looking up in a table of the unit range (the larger table stays in L2).
struct MatrixShaperTransform: PixelColorTransform {
    /// Per input channel (R, G, B: 256 entries each), the packed fixed-point contributions.
    private let contributions: [Int64]
    private let encoding: [UInt8]
    /// The sRGB-encoded 8-bit value of each biased field value: linear light
    /// `(i - bias) / unit`, clipped to 0...1. Shared by every transform (256 KB); `nil` only if
    /// LittleCMS's sRGB profile had no tone curve.
    private static let sharedEncoding: [UInt8]? = {
        let srgb = LittleCMS.sRGB()
        guard let curve = curve(srgb.handle, cmsSigRedTRCTag).flatMap({ cmsReverseToneCurve($0) }) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        withExtendedLifetime(srgb) {}
        let levels = (0...unit).map { step in
            let value = cmsEvalToneCurveFloat(curve, Float(step) / Float(unit))
            return UInt8(min(max(value * 255 + 0.5, 0), 255))
        }
        return (0..<encodingCount).map { levels[min(max($0 - Int(bias), 0), unit)] }
    }()
    /// Whether the transform changes no pixel: the profile is sRGB (or indistinguishable from it
    /// at 8 bits), as many cameras and editors embed.
    let isIdentity: Bool

    /// Linear light 1.0 in the fixed-point fields.
    private static let unit = 32768
    private static let fieldBits = 21
    /// Added once to each output field, so that negative matrix terms never make it negative.
    private static let bias: Int64 = 1 << 17
    /// Field values the encoding table covers: up to four times linear white above the bias.
    private static let encodingCount = 1 << 18

    /// The transform of `profile` (RGB or gray) to sRGB; `nil` when it is not a matrix-shaper
    /// (or its matrix is too extreme for the fixed-point fields).
    init?(_ profile: LittleCMS.Profile) {
        let handle = profile.handle
        guard cmsIsMatrixShaper(handle) != 0 else { return nil }
        let srgb = LittleCMS.sRGB()
        guard let toSRGB = withExtendedLifetime(srgb, { Self.colorants(of: srgb.handle).flatMap(Self.inverse) }),
            let encoding = Self.sharedEncoding
        else { return nil }
        let curves: [[Double]]
        let matrix: [Double]
        switch profile.colorSpace {
        case cmsSigRgbData:
            guard let colorants = Self.colorants(of: handle),
                let r = Self.curve(handle, cmsSigRedTRCTag), let g = Self.curve(handle, cmsSigGreenTRCTag),
                let b = Self.curve(handle, cmsSigBlueTRCTag)
            else { return nil }
            curves = [Self.table(r), Self.table(g), Self.table(b)]
            matrix = Self.product(toSRGB, colorants)
        case cmsSigGrayData:
            // Gray is neutral: its linear light is the same in every sRGB channel.
            guard let k = Self.curve(handle, cmsSigGrayTRCTag) else { return nil }
            curves = Array(repeating: Self.table(k), count: 3)
            matrix = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        default:
            return nil
        }
        // Each output field must stay within the encoding table (and so within its 21 bits) for
        // any input: bias minus the most negative sum, bias plus the most positive.
        let unit = Double(Self.unit)
        for row in 0..<3 {
            let terms = (0..<3).map { matrix[row * 3 + $0] * unit }
            let low = terms.reduce(0) { $0 + min($1, 0) }
            let high = terms.reduce(0) { $0 + max($1, 0) }
            guard Double(Self.bias) + low >= 0, Double(Self.bias) + high + 3 < Double(Self.encodingCount) else { return nil }
        }
        contributions = (0..<3).flatMap { channel in
            curves[channel].map { linear in
                (0..<3).reduce(Int64(0)) { packed, row in
                    var field = Int64((matrix[row * 3 + channel] * linear * unit).rounded())
                    if channel == 0 { field += Self.bias }
                    return packed + field << (Int64(row) * Int64(Self.fieldBits))
                }
            }
        }
        self.encoding = encoding
        let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        let bias = Int(Self.bias)
        isIdentity =
            zip(matrix, identity).allSatisfy { abs($0 - $1) < 0.002 }
            && curves.allSatisfy { table in
                table.indices.allSatisfy { Int(encoding[bias + Int(table[$0] * unit + 0.5)]) == $0 }
            }
    }

    func convert(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        contributions.withUnsafeBufferPointer { table in
            encoding.withUnsafeBufferPointer { encoding in
                let t = table.baseAddress!
                let e = encoding.baseAddress!
                let bits = Int64(Self.fieldBits)
                // The field's value is below encodingCount (checked when the transform was made);
                // masking to the table's size keeps every index in bounds regardless. The table
                // clips out-of-gamut colours to the sRGB gamut, as relative colorimetric does.
                let index = Int64(Self.encodingCount - 1)
                @inline(__always) func encode(_ field: Int64) -> UInt8 {
                    e[Int(field & index)]
                }
                for i in 0..<count {
                    let p = pixels + i &* 4
                    let sum = t[Int(p[0])] &+ t[Int(p[1]) &+ 256] &+ t[Int(p[2]) &+ 512]
                    p[0] = encode(sum)
                    p[1] = encode(sum &>> bits)
                    p[2] = encode(sum &>> (2 &* bits))
                }
            }
        }
    }

    private static func curve(_ profile: cmsHPROFILE, _ tag: cmsTagSignature) -> OpaquePointer? {
        cmsReadTag(profile, tag).map { OpaquePointer($0) }
    }

    private static func table(_ curve: OpaquePointer) -> [Double] {
        (0..<256).map { Double(min(max(cmsEvalToneCurveFloat(curve, Float($0) / 255), 0), 1)) }
    }

    /// The colorant matrix (columns: red, green, blue in D50 XYZ), row-major.
    private static func colorants(of profile: cmsHPROFILE) -> [Double]? {
        let tags = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag]
        var columns: [cmsCIEXYZ] = []
        for tag in tags {
            guard let xyz = cmsReadTag(profile, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self) else { return nil }
            columns.append(xyz.pointee)
        }
        return [
            columns[0].X, columns[1].X, columns[2].X,
            columns[0].Y, columns[1].Y, columns[2].Y,
            columns[0].Z, columns[1].Z, columns[2].Z,
        ]
    }

    private static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index in
            let row = index / 3
            let column = index % 3
            return (0..<3).reduce(0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
        }
    }

    private static func inverse(_ m: [Double]) -> [Double]? {
        let cofactors = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        guard abs(determinant) > 1e-12 else { return nil }
        return cofactors.map { $0 / determinant }
    }
}
