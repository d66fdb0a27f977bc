// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import KingfisherImaging

/// `keep(exif)` and `keep(copyright)`: the source's EXIF written into every format that has a
/// place for it, upright and without its thumbnail; by default none.
@Suite struct KeptMetadataTests {
    /// A photo taken sideways (orientation 6) with camera, author and position tags.
    private static let source = try! EditingFixtures.folder.data("exif.jpg")

    /// The source processed by `spec`, encoded as `format` as the service does.
    private func output(_ spec: String, as format: ImageFileFormat) throws -> (data: Data, kept: EXIFBlock?) {
        let chain = try ImageProcessorSpec.processor(from: spec)
        let image = try chain.withoutOutputControls.process(.data(Self.source), in: ImageProcessingContext())
        let kept = chain.outputControls.keptEXIF(of: Self.source)
        let options = chain.outputControls.encodingOptions(defaultQuality: 90, exif: kept)
        return (try image.encoded(as: format, options: options), kept)
    }

    @Test(arguments: [ImageFileFormat.JPEG, .PNG, .WebP, .AVIF, .JXL])
    func keepEXIFWritesTheSourcesBlockUpright(_ format: ImageFileFormat) throws {
        let (data, kept) = try output("resize(20x0)|>keep(exif)", as: format)
        let block = try #require(kept)
        #expect(data.firstRange(of: block.tiff) != nil, "the whole block is in the \(format) file")
        let orientation = block.tiff.withUnsafeBytes { EXIFReader.orientation(tiff: $0, maxByteCount: 1 << 20) }
        #expect(orientation == .up, "the pixels are upright: the tag says so")
        let image = try KingfisherImage.decode(data: data)
        #expect(image.pixelWidth == 20 && image.pixelHeight == 29, "read back without a second turn")
        guard [.JPEG, .PNG, .WebP].contains(format) else { return }
        let summary = try #require(EXIFSummary(data: data, includingGPS: true))
        #expect(summary.model == "Canon EOS R5" && summary.artist == "Ada Lovelace" && summary.dateTaken == "2026:05:17 14:03:22")
        #expect(summary.latitude != nil, "keep(exif) keeps all of it")
    }

    @Test(arguments: [ImageFileFormat.JPEG, .PNG, .WebP])
    func keepCopyrightKeepsOnlyWhoMadeIt(_ format: ImageFileFormat) throws {
        let summary = try #require(EXIFSummary(data: output("resize(20x0)|>keep(copyright)", as: format).data, includingGPS: true))
        #expect(summary.artist == "Ada Lovelace" && summary.copyright == "(c) 2026 Ada Lovelace")
        #expect(summary.make == nil && summary.model == nil && summary.dateTaken == nil && summary.latitude == nil)
    }

    @Test(arguments: [ImageFileFormat.JPEG, .PNG, .WebP, .AVIF, .JXL])
    func byDefaultNoEXIFIsWritten(_ format: ImageFileFormat) throws {
        let (data, kept) = try output("resize(20x0)", as: format)
        #expect(kept == nil && EXIFSummary(data: data) == nil)
        #expect(data.firstRange(of: Data("Canon EOS R5".utf8)) == nil)
    }

    @Test func copyrightOnlyIsNilWithoutTheTags() throws {
        let camera = try #require(EXIFBlock(tiff: TIFFBuilder.block(ifd0: [(0x010F, "Canon")])))
        #expect(camera.copyrightOnly == nil)
        let short = try #require(EXIFBlock(tiff: TIFFBuilder.block(ifd0: [(0x013B, "Al"), (0x8298, "(c) Grace Hopper")])))
        let copyright = try #require(short.copyrightOnly)
        let summary = copyright.tiff.withUnsafeBytes { EXIFSummary(tiff: $0, includingGPS: false) }
        #expect(summary?.artist == "Al" && summary?.copyright == "(c) Grace Hopper", "inline and offset values alike")
    }

    @Test(arguments: [true, false])
    func uprightingWipesTheThumbnail(littleEndian: Bool) throws {
        let thumbnail = Data([0xFF, 0xD8, 0xFF, 0xDB] + [UInt8](repeating: 0x5A, count: 60) + [0xFF, 0xD9])
        let tiff = TIFFBuilder.block(ifd0: [(0x0110, "Canon EOS R5")], orientation: 8, thumbnail: thumbnail, littleEndian: littleEndian)
        let block = try #require(EXIFBlock(tiff: tiff))
        #expect(block.tiff.firstRange(of: thumbnail) != nil)
        #expect(block.tiff.withUnsafeBytes { EXIFReader.orientation(tiff: $0, maxByteCount: 1 << 20) } == .left)
        let upright = block.uprighted
        #expect(upright.tiff.count == block.tiff.count && upright.tiff.firstRange(of: thumbnail) == nil)
        #expect(upright.tiff.withUnsafeBytes { EXIFReader.orientation(tiff: $0, maxByteCount: 1 << 20) } == .up)
        let next = upright.tiff.withUnsafeBytes { bytes in
            TIFFLayout(bytes).flatMap { layout in layout.firstDirectory.flatMap { layout.u16($0) }.flatMap { layout.u32(8 + 2 + $0 * 12) } }
        }
        #expect(next == 0, "IFD0 links to no thumbnail directory")
        let summary = upright.tiff.withUnsafeBytes { EXIFSummary(tiff: $0, includingGPS: false) }
        #expect(summary?.model == "Canon EOS R5")
    }

    @Test func aBlockWithoutATIFFHeaderIsRefused() {
        #expect(EXIFBlock(tiff: Data("not tiff at all".utf8)) == nil)
        #expect(EXIFBlock(tiff: Data([0x49, 0x49, 43, 0, 8, 0, 0, 0])) == nil)
        #expect(EXIFBlock(of: Data([0xFF, 0xD8, 0xFF, 0xD9])) == nil)
    }
}

/// Small TIFF blocks made by hand: ASCII tags in IFD0, an orientation, and an IFD1 thumbnail.
enum TIFFBuilder {
    static func block(
        ifd0 texts: [(tag: Int, value: String)], orientation: Int? = nil, thumbnail: Data? = nil, littleEndian: Bool = true
    ) -> Data {
        func u16(_ value: Int) -> [UInt8] {
            littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] : [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        func u32(_ value: Int) -> [UInt8] { littleEndian ? u16(value & 0xFFFF) + u16(value >> 16) : u16(value >> 16) + u16(value & 0xFFFF) }
        let entryCount = texts.count + (orientation == nil ? 0 : 1)
        let ifd0End = 8 + 2 + entryCount * 12 + 4
        var values: [UInt8] = []
        var entries: [(tag: Int, bytes: [UInt8])] = []
        if let orientation { entries.append((0x0112, u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0])) }
        for (tag, value) in texts {
            let text = Array(value.utf8) + [0]
            if text.count <= 4 {
                entries.append((tag, u16(tag) + u16(2) + u32(text.count) + text + [UInt8](repeating: 0, count: 4 - text.count)))
            } else {
                entries.append((tag, u16(tag) + u16(2) + u32(text.count) + u32(ifd0End + values.count)))
                values += text
            }
        }
        let ifd1 = ifd0End + values.count
        var block = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(entryCount)
        block += entries.sorted { $0.tag < $1.tag }.flatMap(\.bytes)
        block += u32(thumbnail == nil ? 0 : ifd1) + values
        if let thumbnail {
            let start = ifd1 + 2 + 2 * 12 + 4
            block += u16(2) + u16(0x0201) + u16(4) + u32(1) + u32(start) + u16(0x0202) + u16(4) + u32(1) + u32(thumbnail.count) + u32(0)
            block += thumbnail
        }
        return Data(block)
    }
}
