// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CLCMS2
import Foundation
import KingfisherTestKit
import Testing

@testable import KingfisherImaging

/// Embedded profiles are honoured: decoded pixels are what LittleCMS makes of them in sRGB.
@Suite(.timeLimit(.minutes(10))) struct ColorManagementTests {
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var profile: String
        var ref: String
        var testDescription: String { file }
    }

    static let folder = FixtureFolder<Entry>("color")
    static let entries = folder.entries

    static func data(_ file: String) throws -> Data {
        try folder.data(file)
    }

    static func reference(_ entry: Entry) throws -> KingfisherImage {
        try KingfisherImage.decode(data: data(entry.ref))
    }

    @Test(arguments: entries)
    func wideGamutPhotosMatchLittleCMS(_ entry: Entry) throws {
        let image = try KingfisherImage.decode(data: Self.data(entry.file))
        let reference = try Self.reference(entry)
        #expect(image.colorProfile == nil)
        #expect(psnr(image.pixels, reference.pixels) >= 40, "\(entry.file)")
        // The test can fail: the pixels as stored are far from the reference (CMYK is converted
        // either way).
        guard entry.profile != "cmyk" else { return }
        let unconverted = try KingfisherImage.decode(data: Self.data(entry.file), options: ImageCreatingOptions(preserveColorProfile: true))
        #expect(psnr(unconverted.pixels, reference.pixels) < 36, "\(entry.file) unconverted")
    }

    /// A thumbnail is converted after the reduction: exactly the kept-profile thumbnail put
    /// through the profile's transform.
    @Test(arguments: entries.filter { $0.profile != "cmyk" })
    func downsampledDecodesAreConvertedAfterReduction(_ entry: Entry) throws {
        let data = try Self.data(entry.file)
        let small = try KingfisherImage.downsampled(data: data, maxPixelSize: 48)
        let kept = try KingfisherImage.downsampled(data: data, maxPixelSize: 48, options: ImageCreatingOptions(preserveColorProfile: true))
        let icc = try #require(kept.colorProfile?.iccData)
        let transform = try #require(ColorConversion.transform(icc: icc, input: .rgba))
        var converted = kept.pixels
        converted.withUnsafeMutableBufferPointer { transform.convert($0.baseAddress!, count: $0.count / 4) }
        #expect(small.pixelWidth == 48 && small.colorProfile == nil)
        #expect(converted == small.pixels, "\(entry.file)")
    }

    @Test(arguments: entries.filter { $0.profile != "cmyk" })
    func aKeptProfileTravelsIntoTheEncodedFile(_ entry: Entry) throws {
        let options = ImageCreatingOptions(preserveColorProfile: true)
        let kept = try KingfisherImage.decode(data: Self.data(entry.file), options: options)
        let profile = try #require(kept.colorProfile)
        #expect(
            profile.name.lowercased().contains(
                entry.profile.replacingOccurrences(of: "adobergb", with: "adobe rgb")
                    .replacingOccurrences(of: "displayp3", with: "display p3")))
        let reference = try Self.reference(entry)
        for format in [ImageFileFormat.PNG, .WebP, .JPEG] {
            let encoded = try kept.encoded(as: format, compressionQuality: 1, lossless: true)
            #expect(try KingfisherImage.decode(data: encoded, options: options).colorProfile == profile, "\(format)")
            let converted = try KingfisherImage.decode(data: encoded)
            #expect(psnr(converted.pixels, reference.pixels) >= (format == .JPEG ? 35 : 40), "\(entry.file) as \(format)")
        }
    }

    @Test func convertedImagesAreWrittenWithoutAProfile() throws {
        let image = try KingfisherImage.decode(data: Self.data("displayp3.png"))
        for format in [ImageFileFormat.PNG, .WebP, .JPEG] {
            let encoded = try image.encoded(as: format)
            #expect(
                try KingfisherImage.decode(data: encoded, options: ImageCreatingOptions(preserveColorProfile: true)).colorProfile == nil)
        }
    }

    /// The Swift matrix-shaper path does what LittleCMS does, on every 8-bit value of each channel.
    @Test(arguments: ["adobergb.png", "prophoto.png", "displayp3.png"])
    func matrixShaperPathAgreesWithLittleCMS(_ file: String) throws {
        let space = try Self.data(file).withUnsafeBytes { PNGColorChunks.colorSpace(of: $0) }
        let icc = try #require(ColorConversion.iccData(for: space))
        let profile = try #require(LittleCMS.openProfile(icc))
        let fast = try #require(MatrixShaperTransform(profile))
        let reference = try #require(LCMSTransform(profile, input: .rgba))
        var pixels: [UInt8] = []
        for value in 0..<256 {
            let v = UInt8(value)
            let w = UInt8((value * 7) % 256)
            let u = UInt8((value * 131) % 256)
            pixels += [v, w, u, 255, v, v, v, 128, u, v, w, 0]
        }
        var ours = pixels
        var theirs = pixels
        ours.withUnsafeMutableBufferPointer { fast.convert($0.baseAddress!, count: $0.count / 4) }
        theirs.withUnsafeMutableBufferPointer { reference.convert($0.baseAddress!, count: $0.count / 4) }
        #expect(maxDifference(ours, theirs) <= 1, "\(file)")
        #expect(stride(from: 3, to: ours.count, by: 4).allSatisfy { ours[$0] == pixels[$0] }, "alpha untouched")
    }

    @Test func anSRGBProfileChangesNothing() throws {
        let srgb = try #require(LittleCMS.sRGB().iccData())
        #expect(ColorConversion.transform(icc: srgb, input: .rgba) == nil)
    }

    @Test func numberedColorSpacesBecomeProfiles() throws {
        // Display P3 by its H.273 code points, and BT.2020 with the BT.709 curve.
        for (primaries, transfer) in [(12, 13), (9, 1), (1, 8)] {
            let icc = try #require(ColorConversion.iccData(for: .cicp(primaries: primaries, transfer: transfer)))
            #expect(ColorConversion.transform(icc: icc, input: .rgba) != nil, "\(primaries)/\(transfer)")
        }
        #expect(ColorConversion.iccData(for: .cicp(primaries: 1, transfer: 16)) == nil, "PQ needs tone mapping")
        // sRGB by numbers converts to (nearly) nothing.
        let srgb = try #require(ColorConversion.iccData(for: .cicp(primaries: 1, transfer: 13)))
        #expect(ColorConversion.transform(icc: srgb, input: .rgba) == nil)
    }

    @Test func pngColorChunksFollowTheirPrecedence() {
        func png(_ chunks: [(String, [UInt8])]) -> [UInt8] {
            var bytes: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
            for (type, body) in chunks {
                bytes += withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + Array(type.utf8) + body + [0, 0, 0, 0]
            }
            return bytes
        }
        func space(_ chunks: [(String, [UInt8])]) -> SourceColorSpace {
            png(chunks).withUnsafeBytes { PNGColorChunks.colorSpace(of: $0) }
        }
        let gamma22: [UInt8] = withUnsafeBytes(of: UInt32(45455).bigEndian, Array.init)
        let gamma18: [UInt8] = withUnsafeBytes(of: UInt32(55556).bigEndian, Array.init)
        #expect(space([("IHDR", [UInt8](repeating: 0, count: 13)), ("gAMA", gamma22)]) == .sRGB)
        #expect(space([("gAMA", gamma18)]) == .calibrated(gamma: 0.55556, chromaticities: nil))
        #expect(space([("gAMA", gamma18), ("sRGB", [0])]) == .sRGB)
        #expect(space([("sRGB", [0]), ("cICP", [12, 13, 0, 1])]) == .cicp(primaries: 12, transfer: 13))
        // A broken iCCP (not zlib) is ignored.
        #expect(space([("iCCP", Array("x\u{0}\u{0}junk".utf8))]) == .sRGB)
        // Chunks after the image data do not count.
        #expect(space([("IDAT", [0]), ("gAMA", gamma18)]) == .sRGB)
    }

    @Test func brokenProfilesLeaveThePixelsAsStored() throws {
        var garbage = [UInt8](repeating: 0x41, count: 600)
        garbage[36..<40] = [0x61, 0x63, 0x73, 0x70]  // "acsp" where a profile has it
        #expect(ColorProfile(iccData: Data(garbage)) == nil)
        #expect(ColorConversion.transform(icc: Data(garbage), input: .rgba) == nil)
        #expect(ColorConversion.transform(icc: Data(garbage), input: .cmyk(inverted: true)) == nil)
    }

    /// A JPEG whose profile is split over several APP2 segments, as large profiles are.
    @Test func aProfileSplitOverSegmentsIsReassembled() throws {
        let image = try KingfisherImage.decode(data: Self.data("displayp3.png"), options: ImageCreatingOptions(preserveColorProfile: true))
        let profile = try #require(image.colorProfile)
        let jpeg = try image.encoded(as: .JPEG)
        // Re-split the one APP2 segment into three.
        let bytes = [UInt8](jpeg)
        let start = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xE2 })
        let length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        let icc = Array(profile.iccData)
        let parts = [Array(icc[0..<100]), Array(icc[100..<3000]), Array(icc[3000...])]
        var segments: [UInt8] = []
        for (index, part) in parts.enumerated() {
            segments += [0xFF, 0xE2, UInt8((part.count + 16) >> 8), UInt8((part.count + 16) & 0xFF)]
            segments += Array("ICC_PROFILE\u{0}".utf8) + [UInt8(index + 1), 3] + part
        }
        let resplit = Array(bytes[..<start]) + segments + Array(bytes[(start + 2 + length)...])
        let decoded = try KingfisherImage.decode(data: Data(resplit), options: ImageCreatingOptions(preserveColorProfile: true))
        #expect(decoded.colorProfile == profile)
        // Without the middle part the profile is unusable and ignored.
        let missing = Array(bytes[..<start]) + segments.prefix(4 + 14 + 100) + Array(bytes[(start + 2 + length)...])
        #expect(
            try KingfisherImage.decode(data: Data(missing), options: ImageCreatingOptions(preserveColorProfile: true)).colorProfile == nil)
    }
}
