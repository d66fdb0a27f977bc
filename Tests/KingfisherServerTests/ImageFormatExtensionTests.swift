// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherServer
import KingfisherTestKit
import Testing

extension ImageFileFormat {
    /// Netpbm's binary pixmap: the toy format these tests add.
    static let PPM = ImageFileFormat(rawValue: "PPM")
}

/// A file format written against the public API alone, as an application would: binary PPM
/// (`P6`), one descriptor registered with one call. Decoding, encoding, extensions and the image
/// service's URLs then know it like a built-in format.
@Suite struct ImageFormatExtensionTests {
    struct NotAPixmap: Error {}

    static let ppm = ImageFormatDescriptor(
        format: .PPM, name: "PPM", mimeType: "image/x-portable-pixmap", fileExtensions: ["ppm"], supportsAlpha: false,
        detect: { $0.starts(with: Array("P6".utf8)) },
        decode: { data, options in try decode(data, scale: options.scale) },
        encode: { image, _, _ in encode(image) })

    init() {
        ImageFormatRegistry.shared.register(Self.ppm)
    }

    /// `P6 W H 255`, one whitespace byte, then W*H RGB triples.
    static func decode(_ data: Data, scale: CGFloat) throws -> KingfisherImage {
        let bytes = [UInt8](data)
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > start, let value = Int(String(decoding: bytes[start..<index], as: UTF8.self)) else { throw NotAPixmap() }
            fields.append(value)
        }
        let (width, height) = (fields[0], fields[1])
        index += 1
        guard width > 0, height > 0, fields[2] == 255, bytes.count - index >= width * height * 3 else { throw NotAPixmap() }
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for pixel in 0..<(width * height) {
            pixels += bytes[(index + pixel * 3)..<(index + pixel * 3 + 3)] + [255]
        }
        return KingfisherImage(width: width, height: height, pixels: pixels, scale: scale, hasAlpha: false)
    }

    static func encode(_ image: KingfisherImage) -> Data {
        var data = Data("P6\n\(image.pixelWidth) \(image.pixelHeight)\n255\n".utf8)
        for pixel in stride(from: 0, to: image.pixels.count, by: 4) { data.append(contentsOf: image.pixels[pixel..<pixel + 3]) }
        return data
    }

    @Test func aRegisteredFormatDecodesEncodesAndIsNamedByItsExtension() throws {
        let pixmap = Data("P6\n2 1\n255\n".utf8) + Data([255, 0, 0, 0, 0, 255])
        #expect(pixmap.kf.imageFileFormat == .PPM)
        let image = try KingfisherImage.decode(data: pixmap)
        #expect(image.pixelWidth == 2 && image.pixels == [255, 0, 0, 255, 0, 0, 255, 255])
        #expect(try image.encoded(as: .PPM) == pixmap)
        #expect(ImageFormatRegistry.shared.format(forFileExtension: "PPM") == .PPM)
        #expect(ImageFileFormat.PPM.mimeType == "image/x-portable-pixmap" && ImageFileFormat.PPM.isEncodable)
        // Processors read it as any format: a PNG made from it.
        let thumbnail = try ImageProcessorSpec.processor(from: "resize(1x1)").process(.data(pixmap), in: ImageProcessingContext())
        #expect(thumbnail.pixelWidth == 1)
        #expect(OutputFormat(fileExtension: "ppm")?.mimeType == "image/x-portable-pixmap", "the service writes it too")
    }

    @Test func theImageServiceAnswersInARegisteredFormat() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let path = ImageURLPath.make(
                    source: origin.url("/image/photo.png"), processing: "resize(4x3,fill)", format: OutputFormat(fileExtension: "ppm"),
                    signer: nil)
                let answer = try await service.get(path)
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.header("Content-Type") == "image/x-portable-pixmap")
                #expect(answer.body.starts(with: Data("P6\n4 3\n255\n".utf8)))
            }
        }
    }
}
