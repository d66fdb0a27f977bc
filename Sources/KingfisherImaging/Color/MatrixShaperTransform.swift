import CLCMS2
import Foundation

/// The conversion of a matrix-shaper profile (three tone curves and a 3x3 matrix, as Adobe RGB,
/// Display P3, ProPhoto and every camera's RGB profile are) to sRGB, evaluated in Swift.
///
/// LittleCMS converts 12 MP in ~180 ms here, longer than decoding the JPEG; this does the same
/// arithmetic (relative colorimetric: source curves to linear light, source colorants to sRGB's
/// through D50 XYZ, clip, sRGB's curve) with lookup tables, several times faster. Black-point
/// compensation is the identity for such profiles, whose black is 0. The tables are built from
/// the profile by LittleCMS itself, so the curves are read exactly as it reads them.
struct MatrixShaperTransform: PixelColorTransform {
    /// Linear light of each 8-bit input value, per channel.
    private let red: [Float], green: [Float], blue: [Float]
    /// Source linear RGB to sRGB linear RGB, row-major.
    private let matrix: [Float]
    /// sRGB-encoded 8-bit value of linear light `i / encodingSteps`.
    private let encoding: [UInt8]
    private static let encodingSteps = 16383

    /// The transform of `profile` (RGB or gray) to sRGB; `nil` when it is not a matrix-shaper.
    init?(_ profile: LittleCMS.Profile) {
        let handle = profile.handle
        guard cmsIsMatrixShaper(handle) != 0 else { return nil }
        let srgb = LittleCMS.sRGB()
        guard let toSRGB = Self.colorants(of: srgb.handle).flatMap(Self.inverse),
              let srgbCurve = Self.curve(srgb.handle, cmsSigRedTRCTag).flatMap({ cmsReverseToneCurve($0) })
        else { return nil }
        defer { cmsFreeToneCurve(srgbCurve) }
        switch profile.colorSpace {
        case cmsSigRgbData:
            guard let colorants = Self.colorants(of: handle),
                  let r = Self.curve(handle, cmsSigRedTRCTag), let g = Self.curve(handle, cmsSigGreenTRCTag),
                  let b = Self.curve(handle, cmsSigBlueTRCTag)
            else { return nil }
            (red, green, blue) = (Self.table(r), Self.table(g), Self.table(b))
            matrix = Self.product(toSRGB, colorants).map(Float.init)
        case cmsSigGrayData:
            // Gray is neutral: its linear light is the same in every sRGB channel.
            guard let k = Self.curve(handle, cmsSigGrayTRCTag) else { return nil }
            red = Self.table(k)
            (green, blue) = (red, red)
            matrix = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        default:
            return nil
        }
        encoding = (0...Self.encodingSteps).map { step in
            let value = cmsEvalToneCurveFloat(srgbCurve, Float(step) / Float(Self.encodingSteps))
            return UInt8(min(max(value * 255 + 0.5, 0), 255))
        }
    }

    /// Whether the transform changes no pixel: the profile is sRGB (or indistinguishable from it
    /// at 8 bits), as many cameras and editors embed.
    var isIdentity: Bool {
        let identity: [Float] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        guard zip(matrix, identity).allSatisfy({ abs($0 - $1) < 0.002 }) else { return false }
        let steps = Float(Self.encodingSteps)
        return [red, green, blue].allSatisfy { table in
            table.indices.allSatisfy { Int(encoding[Int(table[$0] * steps + 0.5)]) == $0 }
        }
    }

    func convert(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        red.withUnsafeBufferPointer { r in
        green.withUnsafeBufferPointer { g in
        blue.withUnsafeBufferPointer { b in
        encoding.withUnsafeBufferPointer { e in
            let m = matrix
            let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
            let scale = Float(Self.encodingSteps)
            // Out-of-gamut colours clip to the sRGB gamut, as relative colorimetric does.
            @inline(__always) func encode(_ x: Float) -> UInt8 {
                e[Int(min(max(x, 0), 1) * scale + 0.5)]
            }
            for i in 0..<count {
                let p = pixels + i * 4
                let lr = r[Int(p[0])], lg = g[Int(p[1])], lb = b[Int(p[2])]
                p[0] = encode(m0 * lr + m1 * lg + m2 * lb)
                p[1] = encode(m3 * lr + m4 * lg + m5 * lb)
                p[2] = encode(m6 * lr + m7 * lg + m8 * lb)
            }
        }
        }
        }
        }
    }

    private static func curve(_ profile: cmsHPROFILE, _ tag: cmsTagSignature) -> OpaquePointer? {
        cmsReadTag(profile, tag).map { OpaquePointer($0) }
    }

    private static func table(_ curve: OpaquePointer) -> [Float] {
        (0..<256).map { min(max(cmsEvalToneCurveFloat(curve, Float($0) / 255), 0), 1) }
    }

    /// The colorant matrix (columns: red, green, blue in D50 XYZ), row-major.
    private static func colorants(of profile: cmsHPROFILE) -> [Double]? {
        let tags = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag]
        var columns: [cmsCIEXYZ] = []
        for tag in tags {
            guard let xyz = cmsReadTag(profile, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self) else { return nil }
            columns.append(xyz.pointee)
        }
        return [columns[0].X, columns[1].X, columns[2].X,
                columns[0].Y, columns[1].Y, columns[2].Y,
                columns[0].Z, columns[1].Z, columns[2].Z]
    }

    private static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index in
            let row = index / 3, column = index % 3
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
