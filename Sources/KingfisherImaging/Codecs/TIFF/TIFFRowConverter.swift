// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Turns rows of TIFF samples, as libtiff decodes them, into straight-alpha RGBA8.
///
/// Samples of any depth from 1 to 16 bits are packed most significant bit first (libtiff has
/// already put 16-bit ones in native byte order). Each is first read as its full-precision
/// value, so that associated alpha is divided out and 16-bit samples are reduced to 8 bits
/// (rounding, `(v * 255 + 32767) / 65535`) without dropping precision first. 32-bit samples
/// (unsigned, signed or floating point) are first brought to 16 bits by their range.
struct TIFFRowConverter {
    /// What a sample's bits mean.
    enum SampleFormat: Equatable {
        /// An unsigned integer of 1 to 16 or 32 bits, its whole range shown.
        case unsigned
        /// A signed 32-bit integer, its whole range shown (the least value black).
        case signed
        /// A 32-bit float: `minimum` black, `maximum` white, values beyond clipped.
        case float(minimum: Float, maximum: Float)
    }

    /// How the colour samples of a pixel make a colour.
    enum Colour {
        /// One grey sample; `inverted` for PhotometricInterpretation 0 (white is zero).
        case gray(inverted: Bool)
        case rgb
        /// Naive conversion, without a profile: each channel is (1 - C)(1 - K).
        case cmyk
        /// One index into `table`, 4 bytes (RGBA) per entry for every possible index.
        case palette(table: [UInt8])
        /// CIE L*a*b*, written as LittleCMS's 8-bit L*a*b* (a and b offset by 128) for
        /// ``LCMSTransform/labToSRGB`` to convert; `signed` a and b (PhotometricInterpretation
        /// 8, CIELab) or offset already (9, ICCLab).
        case lab(signed: Bool)

        var sampleCount: Int {
            switch self {
            case .gray, .palette: return 1
            case .rgb, .lab: return 3
            case .cmyk: return 4
            }
        }
    }

    /// How the alpha sample (TIFF's first extra sample) relates to the colour samples.
    enum Alpha {
        /// Unassociated: colour stored as is.
        case straight
        /// Associated: colour stored multiplied by alpha, divided out here.
        case associated
    }

    /// Where a channel's samples are: which plane's row, and the sample's index within a pixel
    /// of that row (whose pixels have `samplesPerPixel` samples).
    struct Source {
        var plane: Int
        var sample: Int
    }

    let colour: Colour
    let alpha: Alpha?
    /// The bits a sample takes in a row.
    let bitsPerSample: Int
    let sampleFormat: SampleFormat
    /// The bits of a sample's value once read: 32-bit samples are read as 16-bit values.
    private let valueBits: Int
    /// Samples per pixel in one plane's row: all of them when contiguous, 1 when planar.
    let samplesPerPixel: Int
    /// The colour channels' sources, then alpha's.
    let sources: [Source]
    /// Every raw sample value reduced to 8 bits.
    private let eightBit: [UInt8]
    /// Whether rows are contiguous 8-bit grey or RGB (straight alpha or none): each sample is
    /// then its own 8-bit value, copied straight into RGBA (the common TIFF, in a third of the
    /// time the general path takes).
    private let isDirect: Bool
    /// The current row's samples, `sources.count` per pixel.
    private var samples: [UInt16]

    init(
        colour: Colour, alpha: Alpha?, bitsPerSample: Int, sampleFormat: SampleFormat = .unsigned,
        samplesPerPixel: Int, sources: [Source]
    ) {
        precondition(
            ((1...16).contains(bitsPerSample) && sampleFormat == .unsigned || bitsPerSample == 32)
                && sources.count == colour.sampleCount + (alpha == nil ? 0 : 1))
        self.colour = colour
        self.alpha = alpha
        self.bitsPerSample = bitsPerSample
        self.sampleFormat = sampleFormat
        valueBits = min(bitsPerSample, 16)
        self.samplesPerPixel = samplesPerPixel
        self.sources = sources
        let maxValue = (1 << valueBits) - 1
        eightBit = (0...maxValue).map { UInt8(($0 * 255 + maxValue / 2) / maxValue) }
        samples = []
        let plainColour: Bool
        switch colour {
        case .gray(let inverted): plainColour = !inverted
        case .rgb: plainColour = true
        case .cmyk, .palette, .lab: plainColour = false
        }
        let coloursFirst = sources.prefix(colour.sampleCount).enumerated().allSatisfy { $0.element.sample == $0.offset }
        isDirect =
            plainColour && bitsPerSample == 8 && alpha != .associated && coloursFirst
            && sources.allSatisfy { $0.plane == 0 }
    }

    /// Makes room for rows of up to `width` pixels.
    mutating func reserve(width: Int) {
        samples = [UInt16](repeating: 0, count: width * sources.count)
    }

    /// The bytes of one row of `width` pixels in one plane, padded to whole bytes as TIFF rows are.
    static func rowBytes(width: Int, samplesPerPixel: Int, bitsPerSample: Int) -> Int? {
        let (bits, overflow) = width.multipliedReportingOverflow(by: samplesPerPixel * bitsPerSample)
        return overflow ? nil : (bits + 7) / 8
    }

    /// Converts `count` pixels whose rows start at `rows[plane]` (each holding at least
    /// ``rowBytes(width:samplesPerPixel:bitsPerSample:)`` bytes for `count` pixels) into `out`.
    mutating func convert(rows: UnsafeBufferPointer<UnsafeRawPointer>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        precondition(count * sources.count <= samples.count)
        if isDirect { return copyEightBit(rows[0].assumingMemoryBound(to: UInt8.self), count: count, into: out) }
        let channels = sources.count
        // The scratch row is moved out while `self`'s methods fill it (no copy).
        var scratch: [UInt16] = []
        swap(&scratch, &samples)
        defer { swap(&scratch, &samples) }
        scratch.withUnsafeMutableBufferPointer { samples in
            for (channel, source) in sources.enumerated() {
                unpack(
                    rows[source.plane], firstSample: source.sample, count: count,
                    into: samples.baseAddress! + channel, stride: channels)
            }
            if alpha == .associated { unassociate(samples.baseAddress!, count: count) }
            eightBit.withUnsafeBufferPointer { eightBit in
                write(samples.baseAddress!, eightBit: eightBit.baseAddress!, count: count, into: out)
            }
        }
    }

    /// The direct case: grey or RGB samples as they are, alpha from its own sample.
    private func copyEightBit(_ row: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        let step = samplesPerPixel
        let alphaSample = alpha == nil ? nil : sources.last!.sample
        switch (colour, alphaSample) {
        case (.rgb, nil):
            for i in 0..<count {
                let p = row + i * step
                let o = out + i * 4
                o[0] = p[0]
                o[1] = p[1]
                o[2] = p[2]
                o[3] = 255
            }
        case (.rgb, let a?):
            for i in 0..<count {
                let p = row + i * step
                let o = out + i * 4
                o[0] = p[0]
                o[1] = p[1]
                o[2] = p[2]
                o[3] = p[a]
            }
        default:
            for i in 0..<count {
                let p = row + i * step
                let o = out + i * 4
                o[0] = p[0]
                o[1] = p[0]
                o[2] = p[0]
                o[3] = alphaSample.map { p[$0] } ?? 255
            }
        }
    }

    /// Reads sample `firstSample + i * samplesPerPixel` of the row for each pixel `i`.
    private func unpack(
        _ row: UnsafeRawPointer, firstSample: Int, count: Int,
        into dst: UnsafeMutablePointer<UInt16>, stride: Int
    ) {
        let step = samplesPerPixel
        switch bitsPerSample {
        case 8:
            let bytes = row.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { dst[i * stride] = UInt16(bytes[firstSample + i * step]) }
        case 16:
            for i in 0..<count {
                dst[i * stride] = row.loadUnaligned(fromByteOffset: (firstSample + i * step) * 2, as: UInt16.self)
            }
        case 32:
            for i in 0..<count {
                let bits = row.loadUnaligned(fromByteOffset: (firstSample + i * step) * 4, as: UInt32.self)
                dst[i * stride] = Self.sixteenBits(bits, format: sampleFormat)
            }
        default:
            let bits = bitsPerSample
            let bytes = row.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let bit = (firstSample + i * step) * bits
                // A sample of up to 16 bits spans at most 3 bytes; read only those it covers.
                let first = bit >> 3
                let last = (bit + bits - 1) >> 3
                var window = 0
                for index in first...last { window = window << 8 | Int(bytes[index]) }
                let shift = (last + 1) * 8 - (bit + bits)
                dst[i * stride] = UInt16((window >> shift) & ((1 << bits) - 1))
            }
        }
    }

    /// A 32-bit sample as a 16-bit value over its format's range.
    private static func sixteenBits(_ bits: UInt32, format: SampleFormat) -> UInt16 {
        switch format {
        case .unsigned:
            return UInt16(bits >> 16)
        case .signed:
            // Flipping the sign bit maps Int32.min...Int32.max onto 0...UInt32.max in order.
            return UInt16((bits ^ 0x8000_0000) >> 16)
        case .float(let minimum, let maximum):
            let value = (Float(bitPattern: bits) - minimum) / (maximum - minimum)
            // NaN fails both comparisons and comes out black.
            guard value > 0 else { return 0 }
            return value >= 1 ? UInt16.max : UInt16((value * 65535).rounded())
        }
    }

    /// Divides each colour sample by its pixel's alpha, at full sample precision.
    private func unassociate(_ samples: UnsafeMutablePointer<UInt16>, count: Int) {
        let channels = sources.count
        let colours = channels - 1
        let maxValue = UInt32((1 << valueBits) - 1)
        for i in 0..<count {
            let pixel = samples + i * channels
            let a = UInt32(pixel[colours])
            if a == maxValue { continue }
            for c in 0..<colours {
                pixel[c] = a == 0 ? 0 : UInt16(min(maxValue, (UInt32(pixel[c]) * maxValue + a / 2) / a))
            }
        }
    }

    private func write(
        _ samples: UnsafePointer<UInt16>, eightBit: UnsafePointer<UInt8>, count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let channels = sources.count
        let hasAlpha = alpha != nil
        switch colour {
        case .gray(let inverted):
            let flip = inverted ? UInt16((1 << valueBits) - 1) : 0
            for i in 0..<count {
                let pixel = samples + i * channels
                let o = out + i * 4
                let v = eightBit[Int(pixel[0] ^ flip)]
                o[0] = v
                o[1] = v
                o[2] = v
                o[3] = hasAlpha ? eightBit[Int(pixel[1])] : 255
            }
        case .rgb:
            for i in 0..<count {
                let pixel = samples + i * channels
                let o = out + i * 4
                o[0] = eightBit[Int(pixel[0])]
                o[1] = eightBit[Int(pixel[1])]
                o[2] = eightBit[Int(pixel[2])]
                o[3] = hasAlpha ? eightBit[Int(pixel[3])] : 255
            }
        case .cmyk:
            for i in 0..<count {
                let pixel = samples + i * channels
                let o = out + i * 4
                let k = 255 - Int(eightBit[Int(pixel[3])])
                for c in 0..<3 { o[c] = UInt8(((255 - Int(eightBit[Int(pixel[c])])) * k + 127) / 255) }
                o[3] = hasAlpha ? eightBit[Int(pixel[4])] : 255
            }
        case .lab(let signed):
            // A signed sample's top bit flipped is the sample plus half the range.
            let offset: UInt8 = signed ? 0x80 : 0
            for i in 0..<count {
                let pixel = samples + i * channels
                let o = out + i * 4
                o[0] = eightBit[Int(pixel[0])]
                o[1] = eightBit[Int(pixel[1])] ^ offset
                o[2] = eightBit[Int(pixel[2])] ^ offset
                o[3] = hasAlpha ? eightBit[Int(pixel[3])] : 255
            }
        case .palette(let table):
            table.withUnsafeBufferPointer { table in
                for i in 0..<count {
                    let pixel = samples + i * channels
                    let o = out + i * 4
                    let entry = table.baseAddress! + Int(pixel[0]) * 4
                    o[0] = entry[0]
                    o[1] = entry[1]
                    o[2] = entry[2]
                    o[3] = hasAlpha ? eightBit[Int(pixel[1])] : entry[3]
                }
            }
        }
    }
}
