// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// The libdeflate-based PNG path: every filter and 8-bit colour type decodes to the pixels that
/// were encoded, and to what libspng decodes; files it does not take, or damaged ones, end as
/// libspng ends them.
@Suite(.timeLimit(.minutes(10))) struct PNGDirectDecoderTests {
    let limit = DecodingLimits(maxPixelCount: ImageCreatingOptions.defaultMaxPixelCount, format: .PNG)

    func decode(_ bytes: [UInt8], maxPixelSize: Int? = nil) throws -> DecodedImage {
        try bytes.withUnsafeBytes {
            try PNGCodec.decode($0, options: ImageCreatingOptions(), target: maxPixelSize.map { .longestSide($0) })
        }
    }

    func decodeWithLibspng(_ bytes: [UInt8], maxPixelSize: Int? = nil) throws -> DecodedImage {
        try bytes.withUnsafeBytes { try PNGCodec.decodeWithLibspng($0, limit: limit, target: maxPixelSize.map { .longestSide($0) }) }
    }

    /// Whether the direct decoder takes the file and decodes it without falling back.
    func decodesDirectly(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let layout = PNGChunkLayout(raw), let decoder = PNGDirectDecoder(layout) else { return false }
            var row = [UInt8](repeating: 0, count: decoder.width * 4)
            return row.withUnsafeMutableBufferPointer { row in
                decoder.decodeRows(destination: { _ in row.baseAddress! }, row: { _ in })
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func everyFilterDecodesInEachColourType(channels: Int) throws {
        // Odd sizes; rows use filters 0 to 4 in turn, so each follows each other kind.
        let png = PNGBuilder(width: 37, height: 23, channels: channels, seed: UInt64(channels))
        let bytes = png.bytes
        #expect(decodesDirectly(bytes))
        let image = try decode(bytes)
        #expect(image.width == 37 && image.height == 23)
        #expect(image.hasAlpha == (channels == 2 || channels == 4))
        #expect(image.frames[0].pixels == png.rgba)
        #expect(try decodeWithLibspng(bytes).frames[0].pixels == png.rgba)
    }

    @Test(arguments: [UInt8(1), 3, 4])
    func singleFilterOverLargeRows(filter: UInt8) throws {
        // Every row with the same filter, including the first (no row above it).
        var png = PNGBuilder(width: 301, height: 9, channels: 3, seed: 7)
        png.filterForRow = { _ in filter }
        let bytes = png.bytes
        #expect(decodesDirectly(bytes))
        #expect(try decode(bytes).frames[0].pixels == png.rgba)
    }

    @Test func imageDataSplitOverManyChunks() throws {
        var png = PNGBuilder(width: 64, height: 40, channels: 4, seed: 11)
        png.imageDataChunkSize = 7
        png.extraChunks = [("tEXt", Array("Comment\u{0}split".utf8)), ("PLTE", [0, 0, 0])]
        let bytes = png.bytes
        #expect(decodesDirectly(bytes))
        #expect(try decode(bytes).frames[0].pixels == png.rgba)
    }

    @Test(arguments: [1, 4])
    func thumbnailsMatchLibspng(channels: Int) throws {
        let png = PNGBuilder(width: 400, height: 250, channels: channels, seed: 3)
        let bytes = png.bytes
        let direct = try decode(bytes, maxPixelSize: 60)
        let reference = try decodeWithLibspng(bytes, maxPixelSize: 60)
        #expect(direct.width == 60 && direct.height == 38)
        #expect(direct.width == reference.width && direct.height == reference.height)
        #expect(direct.frames[0].pixels == reference.frames[0].pixels)
    }

    @Test func exifOrientationIsApplied() throws {
        // A big-endian TIFF with one IFD entry: Orientation (0x0112), SHORT, 6 (rotate 90° CW).
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]
        var png = PNGBuilder(width: 30, height: 20, channels: 3, seed: 5)
        png.extraChunks = [("eXIf", tiff)]
        let image = try decode(png.bytes)
        #expect(image.width == 20 && image.height == 30)
        #expect(image.frames[0].pixels == (try decodeWithLibspng(png.bytes).frames[0].pixels))
    }

    @Test func declinedKindsGoToLibspng() throws {
        // tRNS (a colour key) is left to libspng, which applies it.
        var keyed = PNGBuilder(width: 8, height: 8, channels: 3, seed: 9)
        let key = Array(keyed.pixels.prefix(3))
        keyed.extraChunks = [("tRNS", key.flatMap { [0, $0] })]
        #expect(!decodesDirectly(keyed.bytes))
        let image = try decode(keyed.bytes)
        #expect(image.hasAlpha && image.frames[0].pixels[3] == 0)
    }

    @Test func imagesTooLargeToInflateAtOnceStreamThroughLibspng() {
        // Only the chunks are read here: a header of 5000x5000 RGBA (100 MB inflated) and a token IDAT.
        let header = PNGBuilder.word(5000) + PNGBuilder.word(5000) + [8, 6, 0, 0, 0]
        let file: [UInt8] =
            [137, 80, 78, 71, 13, 10, 26, 10] + PNGBuilder.chunk("IHDR", header)
            + PNGBuilder.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + PNGBuilder.chunk("IEND", [])
        file.withUnsafeBytes { raw in
            let layout = PNGChunkLayout(raw)
            #expect(layout?.width == 5000)
            #expect(layout.flatMap(PNGDirectDecoder.init) == nil)
        }
        let fits = PNGBuilder(width: 64, height: 64, channels: 4, seed: 1).bytes
        fits.withUnsafeBytes { #expect(PNGChunkLayout($0).flatMap(PNGDirectDecoder.init) != nil) }
    }

    @Test func undefinedFilterIsAnError() {
        var png = PNGBuilder(width: 16, height: 16, channels: 4, seed: 2)
        png.filterForRow = { $0 == 9 ? 5 : 1 }
        #expect(!decodesDirectly(png.bytes))
        #expect(codingErrorReason { _ = try decode(png.bytes) } != nil)
    }

    @Test func shortOrLongImageDataIsAnError() {
        var short = PNGBuilder(width: 50, height: 50, channels: 3, seed: 4)
        // A complete zlib stream of one row too few.
        short.alterStream = { _ in PNGBuilder.zlibCompress([UInt8](repeating: 0, count: 49 * 151)) }
        #expect(!decodesDirectly(short.bytes))
        #expect(codingErrorReason { _ = try decode(short.bytes) } != nil)

        var cut = PNGBuilder(width: 50, height: 50, channels: 3, seed: 4)
        cut.alterStream = { Array($0.prefix($0.count / 2)) }
        #expect(!decodesDirectly(cut.bytes))
        #expect(codingErrorReason { _ = try decode(cut.bytes) } != nil)
    }

    @Test func badChecksumIsAnError() {
        var bytes = PNGBuilder(width: 20, height: 20, channels: 4, seed: 6).bytes
        bytes[bytes.count - 100] ^= 0x40  // inside the IDAT's deflate data, whose CRC no longer matches
        #expect(!decodesDirectly(bytes))
        #expect(codingErrorReason { _ = try decode(bytes) } != nil)
    }

    @Test func damagedStreamsEndAsImagesOrCodingErrors() {
        // The zlib stream damaged at random with every CRC still right: each outcome is an image
        // (the same as libspng's when both decode) or a coding error.
        var random = SeededGenerator(state: 42)
        for round in 0..<300 {
            var png = PNGBuilder(width: 33, height: 17, channels: 1 + round % 4, seed: UInt64(round))
            let damage = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                (Int.random(in: 0..<1000, using: &random), UInt8.random(in: 0...255, using: &random))
            }
            png.alterStream = { stream in
                var stream = stream
                for (index, value) in damage { stream[index % stream.count] = value }
                return stream
            }
            let bytes = png.bytes
            var direct: DecodedImage?
            do {
                direct = try decode(bytes)
            } catch {
                #expect(error is ImageCodingError)
            }
            if let direct, let reference = try? decodeWithLibspng(bytes) {
                #expect(direct.frames[0].pixels == reference.frames[0].pixels)
            }
        }
    }
}
