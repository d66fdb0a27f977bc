// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

@Suite(.timeLimit(.minutes(10))) struct ImageFormatTests {
    @Test func recognisesMagicBytes() {
        let cases: [([UInt8], ImageFileFormat)] = [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0], .PNG),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46], .JPEG),
            (Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8), .GIF),
            (Array("GIF87a\u{1}\u{0}\u{1}\u{0}".utf8), .GIF),
            (Array("RIFF\u{10}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .WebP),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8), .HEIC),
            ([0, 0, 0, 0x1C] + Array("ftypavif".utf8), .AVIF),
            ([0, 0, 0, 0x1C] + Array("ftypmif1\u{0}\u{0}\u{0}\u{0}mif1avifmiaf".utf8), .AVIF),
            ([0, 0, 0, 0x18] + Array("ftypmif1\u{0}\u{0}\u{0}\u{0}mif1heic".utf8), .HEIC),
            (Array("BM".utf8) + [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 40, 0, 0, 0], .BMP),
            (Array("BM".utf8) + [0, 0, 0, 0, 0, 0, 0, 0], .unknown),  // no DIB header size
            ([0, 0, 1, 0, 1, 0, 16, 16, 0, 0], .ICO),
            ([0xFF, 0x0A, 0xFA, 0x1F], .JXL),
            ([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], .JXL),
            ([0x49, 0x49, 0x2A, 0, 8, 0, 0, 0], .TIFF),
            ([0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8], .TIFF),
            (Array("RIFF\u{10}\u{0}\u{0}\u{0}WAVEfmt ".utf8), .unknown),
            ([0xFF, 0xD8, 0xFF], .unknown),  // too short to be sure
            ([], .unknown),
        ]
        for (bytes, format) in cases {
            #expect(Data(bytes).kf.imageFileFormat == format, "\(bytes)")
            #expect(Data(bytes).kf.imageFormat == ImageFormat(format), "\(bytes)")
        }
    }

    /// Kingfisher's four cases, as its users switch over them.
    @Test func kingfishersFormatHasItsFourCases() {
        func name(_ format: ImageFormat) -> String {
            switch format {
            case .unknown: return "unknown"
            case .PNG: return "PNG"
            case .JPEG: return "JPEG"
            case .GIF: return "GIF"
            }
        }
        #expect(ImageFileFormat.allCases.map { name(ImageFormat($0)) }.filter { $0 != "unknown" } == ["PNG", "JPEG", "GIF"])
    }

    /// Kingfisher's way to tell a progressive JPEG: `contains(jpeg: .SOF2)`.
    @Test func jpegMarkersTellProgressiveFromBaseline() throws {
        let progressive = try Fixtures.data("photo_progressive.jpg")
        let baseline = try Fixtures.data("photo_411.jpg")
        #expect(progressive.kf.contains(jpeg: .SOF2) && !progressive.kf.contains(jpeg: .SOF0))
        #expect(baseline.kf.contains(jpeg: .SOF0) && !baseline.kf.contains(jpeg: .SOF2))
        for data in [progressive, baseline] {
            #expect(data.kf.contains(jpeg: .SOS) && data.kf.contains(jpeg: .DHT) && data.kf.contains(jpeg: .DQT))
            #expect(data.kf.contains(jpeg: .EOI))
        }
        // Only JPEG data has markers, whatever bytes it holds.
        let png = try Fixtures.data("photo.png")
        #expect(!(png + Data([0xFF, 0xC2])).kf.contains(jpeg: .SOF2))
    }

    @Test func describesNonImageContent() {
        #expect(ImageDecoder.describeContent(Data("  <!DOCTYPE html><html>".utf8)) == "an HTML document")
        #expect(ImageDecoder.describeContent(Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8)) == "an SVG document")
        #expect(ImageDecoder.describeContent(Data("{\"error\": 404}".utf8)) == "JSON text")
        #expect(ImageDecoder.describeContent(Data("Not Found".utf8)) == "text (\"Not Found\")")
    }

    let tooManyPixels = ImageCodingError.tooManyPixels(format: .PNG, width: 100_000, height: 100_000, frameCount: 1, limit: 100_000_000)

    @Test func codingErrorsHaveTheirCode() {
        #expect(tooManyPixels.errorCode == 6006)
        // Through Kingfisher's processing error, the reason stays reachable.
        let wrapped = KingfisherError.processorError(
            reason: .processingFailed(
                processor: KingfisherError.DecodingFailure(processor: DefaultImageProcessor.default, reason: tooManyPixels),
                item: .data(Data())))
        #expect(wrapped.imageCodingError == tooManyPixels && wrapped.errorCode == 4001)
        #expect(wrapped.localizedDescription == tooManyPixels.errorDescription)
    }

    @Test func codingErrorsDescribeTheRefusedImage() {
        #expect(tooManyPixels.localizedDescription.contains("PNG"))
        #expect(tooManyPixels.localizedDescription.contains("100000x100000"))
    }

    @Test func errorsUseKingfishersDomain() {
        #expect(KingfisherError.errorDomain == "com.onevcat.Kingfisher.Error")
    }
}
