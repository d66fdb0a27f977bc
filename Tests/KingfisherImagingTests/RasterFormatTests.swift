// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherFuzzTargets
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// TIFF (libtiff), BMP and ICO: every fixture against its reference, thumbnails, truncated,
/// corrupted and hostile input.
@Suite(.timeLimit(.minutes(10))) struct RasterFormatTests {
    typealias Entry = RasterFixtures.Entry

    /// The decoder of `format` alone, for what ``KingfisherImage`` does not carry (the colour space).
    static func decoded(_ data: Data, as format: ImageFileFormat, maxPixelSize: Int? = nil) throws -> DecodedImage {
        try data.withUnsafeBytes { bytes in
            switch format {
            case .TIFF: return try TIFFCodec.decode(bytes, options: ImageCreatingOptions(), target: maxPixelSize.map { .longestSide($0) })
            case .BMP: return try BMPDecoder.decode(bytes, options: ImageCreatingOptions(), target: maxPixelSize.map { .longestSide($0) })
            case .ICO: return try ICODecoder.decode(bytes, options: ImageCreatingOptions(), target: maxPixelSize.map { .longestSide($0) })
            default: throw ImageCodingError.unsupportedFormat(format)
            }
        }
    }

    @Test(arguments: RasterFixtures.all)
    func decodesToReference(_ entry: Entry) throws {
        let data = try RasterFixtures.data(entry.file)
        // Pillow leaves pixels in the file's colour space: so does this decode.
        let image = try KingfisherImage.decode(data: data, options: ImageCreatingOptions(preserveColorProfile: true))
        #expect(image.format.fileExtension == (entry.file.hasSuffix(".tif") ? "tiff" : String(entry.file.suffix(3))))
        #expect(image.pixelWidth == entry.width && image.pixelHeight == entry.height)
        let reference = try Fixtures.reference("raster/" + entry.ref)
        guard reference.pixelWidth == image.pixelWidth, reference.pixelHeight == image.pixelHeight else {
            Issue.record(
                "\(entry.file): \(image.pixelWidth)x\(image.pixelHeight), reference \(reference.pixelWidth)x\(reference.pixelHeight)")
            return
        }
        if let minPSNR = entry.minPSNR {
            let quality = psnr(image.pixels, reference.pixels)
            #expect(quality >= minPSNR, "\(entry.file): PSNR \(quality) dB")
        } else {
            let difference = maxDifference(image.pixels, reference.pixels)
            #expect(difference <= entry.maxError, "\(entry.file): max difference \(difference)")
        }
        if entry.hasAlpha { #expect(image.hasAlpha) }
        if !image.hasAlpha {
            #expect(Swift.stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
        }
        #expect(image.exifOrientation == entry.orientation)
        #expect(image.frames.count == 1)

        let decoded = try Self.decoded(data, as: image.format)
        if let iccSize = entry.icc {
            guard case .icc(let profile) = decoded.colorSpace else {
                Issue.record("\(entry.file): colour space \(decoded.colorSpace)")
                return
            }
            #expect(profile.count == iccSize)
            #expect(profile.count > 40 && profile[36..<40] == Data("acsp".utf8))
        } else {
            #expect(decoded.colorSpace == .sRGB)
        }
    }

    @Test(arguments: RasterFixtures.all)
    func downsampledDecodeFits(_ entry: Entry) throws {
        let data = try RasterFixtures.data(entry.file)
        let reference = try Fixtures.reference("raster/" + entry.ref)
        for maxPixelSize in [1, 10, 25, 1000] {
            let thumbnail = try KingfisherImage.downsampled(data: data, maxPixelSize: maxPixelSize)
            let expected = DownsamplingTarget.fit(width: entry.width, height: entry.height, maxPixelSize: maxPixelSize)
            #expect(
                thumbnail.pixelWidth == expected.width && thumbnail.pixelHeight == expected.height,
                "\(entry.file) at \(maxPixelSize): \(thumbnail.pixelWidth)x\(thumbnail.pixelHeight)")
            #expect(thumbnail.originalData == nil)
            guard maxPixelSize == 25, thumbnail.pixelWidth == expected.width, thumbnail.pixelHeight == expected.height else { continue }
            // Resampling the reference gives nearly the same pixels (the order of resampling and
            // turning may differ).
            let resized = Resampler.resize(
                reference.pixels, width: reference.pixelWidth, height: reference.pixelHeight,
                to: expected.width, expected.height, hasAlpha: reference.hasAlpha)
            let quality = psnr(thumbnail.pixels, resized)
            #expect(quality >= 30, "\(entry.file) thumbnail: PSNR \(quality) dB")
        }
        if let expected = entry.thumbnail {
            let thumbnail = try KingfisherImage.downsampled(data: data, maxPixelSize: expected.maxPixelSize)
            let reference = try Fixtures.reference("raster/" + expected.ref)
            #expect(thumbnail.pixelWidth == reference.pixelWidth && thumbnail.pixelHeight == reference.pixelHeight)
            #expect(thumbnail.pixels == reference.pixels, "\(entry.file): the thumbnail is not the smallest covering entry")
        }
    }

    /// Every prefix decodes or fails with a coding error; cut in half, the data is truncated.
    @Test(arguments: RasterFixtures.all)
    func truncatedFilesAreRefused(_ entry: Entry) throws {
        let data = try RasterFixtures.data(entry.file)
        let format = data.kf.imageFileFormat
        let half = codingErrorReason { _ = try KingfisherImage.decode(data: data.prefix(data.count / 2)) }
        if entry.file == "tiff_multipage.tif" {
            #expect(half == nil, "the first page lies in the first half")  // the second page is never read
        } else {
            #expect(half == .truncatedData(format: format), "\(entry.file) cut in half: \(String(describing: half))")
        }
        for length in 0..<data.count {
            do {
                _ = try ImageDecoder.decode(Data(data.prefix(length)), as: format, options: ImageCreatingOptions())
            } catch {
                if !(error is ImageCodingError) { Issue.record("\(entry.file)[..<\(length)]: \(error)") }
            }
        }
    }

    /// Bytes overwritten at random: a coding error or an image, never a crash.
    @Test(arguments: RasterFixtures.all)
    func corruptedFilesAreRefusedOrDecoded(_ entry: Entry) throws {
        let data = try RasterFixtures.data(entry.file)
        let format = data.kf.imageFileFormat
        var generator = SeededGenerator(state: UInt64(entry.file.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        for _ in 0..<64 {
            var corrupted = data
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                corrupted[Int.random(in: 0..<data.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                let image = try ImageDecoder.decode(corrupted, as: format, options: ImageCreatingOptions(maxPixelCount: 1 << 22))
                #expect(image.pixels.count == image.pixelWidth * image.pixelHeight * 4)
            } catch {
                if !(error is ImageCodingError) { Issue.record("\(entry.file): \(error)") }
            }
        }
    }

    @Test func fuzzTargetsTakeTheFixtures() throws {
        for entry in RasterFixtures.all {
            let data = try RasterFixtures.data(entry.file)
            let target: FuzzTarget = entry.file.hasSuffix(".tif") ? .decodeTIFF : entry.file.hasSuffix(".bmp") ? .decodeBMP : .decodeICO
            target.run(data)
            FuzzTarget.decode.run(data)
        }
    }

    // MARK: Hostile headers

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }

    /// A BITMAPINFOHEADER of 32-bit pixels.
    static func infoHeader(width: Int, height: Int, bitsPerPixel: Int = 32) -> [UInt8] {
        le32(40) + le32(width) + le32(height) + le16(1) + le16(bitsPerPixel) + [UInt8](repeating: 0, count: 24)
    }

    /// A little-endian TIFF whose directory has `fields` (tag, SHORT or LONG value), then `pixels`.
    static func tiff(_ fields: [(tag: Int, value: Int)], pixels: [UInt8]) -> Data {
        let directorySize = 2 + (fields.count + 1) * 12 + 4
        let pixelOffset = 8 + directorySize
        var entries = fields + [(tag: 273, value: pixelOffset)]
        entries.sort { $0.tag < $1.tag }
        var bytes: [UInt8] = [0x49, 0x49, 42, 0] + le32(8) + le16(entries.count)
        for (tag, value) in entries {
            let isLong = value > 0xFFFF || [256, 257, 273, 278, 279, 322, 323].contains(tag)
            bytes += le16(tag) + le16(isLong ? 4 : 3) + le32(1) + (isLong ? le32(value) : le16(value) + [0, 0])
        }
        return Data(bytes + le32(0) + pixels)
    }

    static func grayTIFF(width: Int, height: Int, extra: [(tag: Int, value: Int)] = []) -> Data {
        let count = width * height
        let fields = [(256, width), (257, height), (258, 8), (259, 1), (262, 1), (277, 1), (278, height), (279, count)]
            .map { (tag: $0.0, value: $0.1) }
        let tags = Set(extra.map(\.tag))
        return tiff(fields.filter { !tags.contains($0.tag) } + extra, pixels: [UInt8](repeating: 0x80, count: min(count, 64)))
    }

    static func icon(entryWidth: Int = 16, offset: Int? = nil, size: Int? = nil, payload: [UInt8]) -> Data {
        let header: [UInt8] = le16(0) + le16(1) + le16(1)
        let entry: [UInt8] =
            [UInt8(entryWidth % 256), UInt8(entryWidth % 256), 0, 0] + le16(1) + le16(32)
            + le32(size ?? payload.count) + le32(offset ?? 22)
        return Data(header + entry + payload)
    }

    /// Headers declaring more pixels than the limit, and the size each declares.
    static let hostile: [(name: String, data: Data, width: Int, height: Int)] = {
        let bmpHeader = infoHeader(width: 100_000, height: 100_000, bitsPerPixel: 24)
        let bmp = Data(Array("BM".utf8) + le32(54) + le32(0) + le32(54) + bmpHeader)
        let png = try! Fixtures.data("png_100000x100000.png")
        return [
            ("bmp", bmp, 100_000, 100_000),
            (
                "bmp-top-down",
                Data(
                    Array("BM".utf8) + le32(54) + le32(0) + le32(54)
                        + infoHeader(width: 100_000, height: -100_000 & 0xFFFF_FFFF)), 100_000, 100_000
            ),
            ("tiff", grayTIFF(width: 100_000, height: 100_000), 100_000, 100_000),
            // A strip per row: refused before libtiff allocates its strip arrays.
            ("tiff-4g-strips", grayTIFF(width: 1, height: 0xFFFF_FFFF, extra: [(278, 1)]), 1, 0xFFFF_FFFF),
            ("ico-bmp", icon(payload: infoHeader(width: 100_000, height: 200_000)), 100_000, 100_000),
            ("ico-png", icon(payload: [UInt8](png)), 100_000, 100_000),
        ]
    }()

    @Test(arguments: hostile.indices)
    func hugeDeclaredSizesAreRefusedFromTheHeader(_ index: Int) throws {
        let (name, data, declaredWidth, declaredHeight) = Self.hostile[index]
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
        guard case .tooManyPixels(let format, let width, let height, _, _)? = reason else {
            Issue.record("\(name): expected tooManyPixels, got \(String(describing: reason))")
            return
        }
        #expect(format == data.kf.imageFileFormat)
        #expect(width == declaredWidth && height == declaredHeight)
        #expect(codingErrorReason { _ = try KingfisherImage.downsampled(data: data, maxPixelSize: 64) } == reason)
    }

    /// A strip of over 16 MiB is read a row at a time (libtiff decodes it incrementally).
    @Test func largeStripsAreReadByRow() throws {
        let width = 4200
        let height = 4000
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width { pixels[y * width + x] = UInt8(truncatingIfNeeded: x &+ y &* 3) } }
        let fields = [(256, width), (257, height), (258, 8), (259, 1), (262, 1), (277, 1), (278, height), (279, pixels.count)]
        let image = try KingfisherImage.decode(data: Self.tiff(fields.map { (tag: $0.0, value: $0.1) }, pixels: pixels))
        #expect(image.pixelWidth == width && image.pixelHeight == height)
        for (x, y) in [(0, 0), (4199, 0), (17, 2500), (4199, 3999)] {
            let offset = (y * width + x) * 4
            let value = pixels[y * width + x]
            #expect(Array(image.pixels[offset..<offset + 4]) == [value, value, value, 255])
        }
    }

    /// Data that cannot fill a large (allowed) canvas is refused before the canvas is allocated.
    @Test func truncatedLargeImagesAreRefusedBeforeDecoding() {
        let palette = [UInt8](repeating: 0x40, count: 256 * 4)
        let codes: [UInt8] = [10, 3, 0, 0, 20, 7]  // two runs and an end of line, then nothing
        let header = Self.infoHeader(width: 10_000, height: 9_000, bitsPerPixel: 8)
        let offset = 14 + header.count + palette.count
        var rle = Array("BM".utf8) + Self.le32(offset + codes.count) + Self.le32(0) + Self.le32(offset) + header + palette + codes
        rle[14 + 16] = 1  // BI_RLE8
        let strips = Self.grayTIFF(width: 10_000, height: 9_000)  // its strip runs far past the end
        for (name, data) in [("bmp-rle8", Data(rle)), ("tiff", strips)] {
            let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
            #expect(reason == .truncatedData(format: data.kf.imageFileFormat), "\(name): \(String(describing: reason))")
        }
    }

    @Test func hugeTilesAreRefused() {
        let data = Self.grayTIFF(width: 4, height: 4, extra: [(322, 65536), (323, 65536), (324, 8), (325, 16)])
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
        guard case .corruptedData(.TIFF, let detail)? = reason else {
            Issue.record("expected corruptedData, got \(String(describing: reason))")
            return
        }
        #expect(detail.contains("tile"))
    }

    @Test func libtiffMessagesAreTheDetail() {
        // Compression 12345 does not exist: libtiff says so when the strip is read.
        let data = Self.grayTIFF(width: 8, height: 8, extra: [(259, 12345)])
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
        guard case .corruptedData(.TIFF, let detail)? = reason else {
            Issue.record("expected corruptedData, got \(String(describing: reason))")
            return
        }
        #expect(detail.lowercased().contains("compression"), "\(detail)")
        #expect(
            codingErrorReason { _ = try KingfisherImage.decode(data: Data([0x49, 0x49, 42, 0, 8, 0])) } == .truncatedData(format: .TIFF))
    }

    /// Each libtiff handle has its own error handler: concurrent decodes keep their own messages.
    @Test func concurrentTIFFDecodesKeepTheirOwnErrors() async throws {
        let good = try RasterFixtures.data("tiff_rgb8_lzw.tif")
        let expected = try KingfisherImage.decode(data: good).pixels
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<32 {
                group.addTask {
                    if index % 2 == 0 { return (try? KingfisherImage.decode(data: good).pixels) == expected }
                    let bad = Self.grayTIFF(width: 8, height: 8, extra: [(259, 12345 + index)])
                    guard case .corruptedData(_, let detail)? = codingErrorReason({ _ = try KingfisherImage.decode(data: bad) }) else {
                        return false
                    }
                    return detail.contains("\(12345 + index)")
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 32 && results.allSatisfy { $0 })
    }

    @Test func icoEntriesOutsideTheFileAreRefused() throws {
        let payload = [UInt8](try RasterFixtures.data("ico_png.ico").dropFirst(6 + 3 * 16))
        let starting = codingErrorReason { _ = try KingfisherImage.decode(data: Self.icon(offset: 0xFFFF_FF00, payload: payload)) }
        guard case .corruptedData(.ICO, _)? = starting else {
            Issue.record("expected corruptedData, got \(String(describing: starting))")
            return
        }
        let ending = codingErrorReason { _ = try KingfisherImage.decode(data: Self.icon(size: 0x7FFF_FFFF, payload: payload)) }
        #expect(ending == .truncatedData(format: .ICO))
        let inside = codingErrorReason { _ = try KingfisherImage.decode(data: Self.icon(offset: 2, payload: payload)) }
        guard case .corruptedData(.ICO, _)? = inside else {
            Issue.record("expected corruptedData, got \(String(describing: inside))")
            return
        }
    }
}
