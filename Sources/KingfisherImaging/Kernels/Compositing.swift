// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Draws a source over a backdrop with a blend mode or Porter-Duff operator, per the W3C
/// Compositing and Blending specification, in floating point on straight-alpha RGBA8 buffers.
enum Compositing {
    /// Where the pixels of one side come from: a buffer of the image's size or one colour.
    enum Layer {
        case pixels([UInt8])
        case color(KingfisherColor)
    }

    /// `source` drawn with `mode` and an extra opacity `alpha` (0…1) over `backdrop`; `count`
    /// pixels. Both layers must hold `count` pixels when they are buffers.
    static func draw(_ source: Layer, over backdrop: Layer, mode: CGBlendMode, alpha: Float = 1, count: Int) -> [UInt8] {
        PixelBuffer.make(count: count * 4) { out in
            withPointer(source) { src in
                withPointer(backdrop) { dst in
                    ParallelRows.forEach(count, bytes: count * 4) { range in
                        for i in range {
                            let s = load(src, i)
                            let b = load(dst, i)
                            store(composite(s, b, mode: mode, alpha: alpha), to: out + i * 4)
                        }
                    }
                }
            }
        }
    }

    /// A layer as a pointer and whether it repeats one pixel.
    private struct LayerPointer {
        var base: UnsafePointer<UInt8>
        var stride: Int
    }

    private static func withPointer<R>(_ layer: Layer, _ body: (LayerPointer) -> R) -> R {
        switch layer {
        case .pixels(let pixels):
            return pixels.withUnsafeBufferPointer { body(LayerPointer(base: $0.baseAddress!, stride: 4)) }
        case .color(let color):
            let c = color.rgba8
            let bytes = [c.r, c.g, c.b, c.a]
            return bytes.withUnsafeBufferPointer { body(LayerPointer(base: $0.baseAddress!, stride: 0)) }
        }
    }

    @inline(__always)
    private static func load(_ layer: LayerPointer, _ i: Int) -> SIMD4<Float> {
        load(layer.base + i * layer.stride)
    }

    /// Reads four bytes as a straight-alpha 0…1 pixel.
    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> SIMD4<Float> {
        SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) / 255
    }

    /// Writes a straight-alpha 0…1 pixel as four rounded bytes.
    @inline(__always)
    static func store(_ value: SIMD4<Float>, to p: UnsafeMutablePointer<UInt8>) {
        let v = (value.clamped(lowerBound: .zero, upperBound: .one) * 255).rounded(.toNearestOrAwayFromZero)
        p[0] = UInt8(v[0])
        p[1] = UInt8(v[1])
        p[2] = UInt8(v[2])
        p[3] = UInt8(v[3])
    }

    /// One pixel: straight-alpha source `s` over straight-alpha backdrop `b`.
    static func composite(_ s: SIMD4<Float>, _ b: SIMD4<Float>, mode: CGBlendMode, alpha: Float) -> SIMD4<Float> {
        let cs = SIMD3(s.x, s.y, s.z)
        let cb = SIMD3(b.x, b.y, b.z)
        let alphaS = s.w * alpha
        let alphaB = b.w
        let premultipliedSource = cs * alphaS
        let premultipliedBackdrop = cb * alphaB
        var result: SIMD3<Float>
        var alphaO: Float
        if let (fa, fb) = porterDuffFactors(mode, alphaS: alphaS, alphaB: alphaB) {
            alphaO = fa * alphaS + fb * alphaB
            result = premultipliedSource * fa + premultipliedBackdrop * fb
        } else if mode == .plusLighter {
            alphaO = min(1, alphaS + alphaB)
            result = (premultipliedSource + premultipliedBackdrop).clamped(lowerBound: .zero, upperBound: .one)
        } else if mode == .plusDarker {
            alphaO = min(1, alphaS + alphaB)
            let ones = SIMD3<Float>(repeating: 1)
            let inverse: SIMD3<Float> = (ones * alphaB - premultipliedBackdrop) + (ones * alphaS - premultipliedSource)
            result = (ones * alphaO - inverse).clamped(lowerBound: .zero, upperBound: ones * alphaO)
        } else {
            // Source-over with a blend function: co = (1 - alphaB) cs + (1 - alphaS) cb + alphaS alphaB B(cb, cs).
            alphaO = alphaS + alphaB * (1 - alphaS)
            result = premultipliedSource * (1 - alphaB) + premultipliedBackdrop * (1 - alphaS) + blend(cb, cs, mode) * (alphaS * alphaB)
        }
        guard alphaO > 0 else { return .zero }
        let straight = result / alphaO
        return SIMD4(straight.x, straight.y, straight.z, alphaO)
    }

    private static func porterDuffFactors(_ mode: CGBlendMode, alphaS: Float, alphaB: Float) -> (Float, Float)? {
        switch mode {
        case .clear: return (0, 0)
        case .copy: return (1, 0)
        case .sourceIn: return (alphaB, 0)
        case .sourceOut: return (1 - alphaB, 0)
        case .sourceAtop: return (alphaB, 1 - alphaS)
        case .destinationOver: return (1 - alphaB, 1)
        case .destinationIn: return (0, alphaS)
        case .destinationOut: return (0, 1 - alphaS)
        case .destinationAtop: return (1 - alphaB, alphaS)
        case .xor: return (1 - alphaB, 1 - alphaS)
        default: return nil
        }
    }

    /// The blend function B(cb, cs) of the specification, on straight colours.
    private static func blend(_ cb: SIMD3<Float>, _ cs: SIMD3<Float>, _ mode: CGBlendMode) -> SIMD3<Float> {
        switch mode {
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return separable(cs, cb, hardLight)
        case .darken: return pointwiseMin(cb, cs)
        case .lighten: return pointwiseMax(cb, cs)
        case .colorDodge: return separable(cb, cs, colorDodge)
        case .colorBurn: return separable(cb, cs, colorBurn)
        case .hardLight: return separable(cb, cs, hardLight)
        case .softLight: return separable(cb, cs, softLight)
        case .difference: return pointwiseMax(cb - cs, cs - cb)
        case .exclusion: return cb + cs - 2 * cb * cs
        case .hue: return setLuminosity(setSaturation(cs, saturation(cb)), luminosity(cb))
        case .saturation: return setLuminosity(setSaturation(cb, saturation(cs)), luminosity(cb))
        case .color: return setLuminosity(cs, luminosity(cb))
        case .luminosity: return setLuminosity(cb, luminosity(cs))
        default: return cs
        }
    }

    private static func separable(_ cb: SIMD3<Float>, _ cs: SIMD3<Float>, _ f: (Float, Float) -> Float) -> SIMD3<Float> {
        SIMD3(f(cb.x, cs.x), f(cb.y, cs.y), f(cb.z, cs.z))
    }

    private static func colorDodge(_ cb: Float, _ cs: Float) -> Float {
        if cb == 0 { return 0 }
        if cs >= 1 { return 1 }
        return min(1, cb / (1 - cs))
    }

    private static func colorBurn(_ cb: Float, _ cs: Float) -> Float {
        if cb >= 1 { return 1 }
        if cs <= 0 { return 0 }
        return 1 - min(1, (1 - cb) / cs)
    }

    private static func hardLight(_ cb: Float, _ cs: Float) -> Float {
        cs <= 0.5 ? cb * 2 * cs : cb + (2 * cs - 1) - cb * (2 * cs - 1)
    }

    private static func softLight(_ cb: Float, _ cs: Float) -> Float {
        if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
        let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
        return cb + (2 * cs - 1) * (d - cb)
    }

    private static func luminosity(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    private static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = luminosity(c)
        let n = c.min()
        let x = c.max()
        var result = c
        if n < 0 { result = SIMD3(repeating: l) + (result - SIMD3(repeating: l)) * l / (l - n) }
        if x > 1 { result = SIMD3(repeating: l) + (result - SIMD3(repeating: l)) * (1 - l) / (x - l) }
        return result
    }

    private static func setLuminosity(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
        clipColor(c + SIMD3(repeating: l - luminosity(c)))
    }

    private static func saturation(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }

    private static func setSaturation(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let low = c.min()
        let high = c.max()
        guard high > low else { return .zero }
        return (c - SIMD3(repeating: low)) * s / (high - low)
    }
}
