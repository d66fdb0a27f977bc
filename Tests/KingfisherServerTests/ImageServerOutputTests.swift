// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherServer
import KingfisherTestKit
import Testing

/// The output steps through the service: quality, progressive, maxbytes, and the quality by
/// format of its settings.
@Suite struct ImageServerOutputTests {
    @Test func outputStepsChangeTheEncodingAndTheResult() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            origin.serve(try SaliencyFixtures.folder.data("face_middle_textured.jpg"), as: "photo.jpg")
            var configuration = testServiceConfiguration(directory: directory)
            configuration.formatQuality = ["webp": 30]
            try await withImageService(configuration) { service in
                func get(_ processing: String?, _ format: OutputFormat) async throws -> ImageServiceUnderTest.Answer {
                    let answer = try await service.get(
                        ImageURLPath.make(source: origin.url("/image/photo.jpg"), processing: processing, format: format, signer: nil))
                    #expect(answer.status == 200, "\(processing ?? "-"): \(answer.text)")
                    return answer
                }
                let plain = try await get(nil, .jpg)
                let low = try await get("quality(30)", .jpg)
                #expect(low.body.count < plain.body.count * 2 / 3 && low.header("ETag") != plain.header("ETag"))
                let progressive = try await get("progressive", .jpg)
                #expect(
                    progressive.body.firstRange(of: Data([0xFF, 0xC2])) != nil && plain.body.firstRange(of: Data([0xFF, 0xC2])) == nil)
                // The format's quality of the settings: WebP at 30 unless the processing says otherwise.
                let webp = try await get(nil, .webp)
                let webpAt80 = try await get("quality(80)", .webp)
                #expect(webp.body.count < webpAt80.body.count * 2 / 3)

                let bounded = try await get("maxbytes(12000)", .jpg)
                #expect(bounded.body.count <= 12_000 && bounded.header("KF-Max-Bytes-Exceeded") == nil)
                let impossible = try await get("resize(300x0)|>maxbytes(300)", .jpg)
                #expect(impossible.body.count > 300)
                #expect(impossible.header("KF-Max-Bytes-Exceeded")?.hasSuffix("bytes at the lowest quality, over 300") == true)
                // From memory too.
                let again = try await get("resize(300x0)|>maxbytes(300)", .jpg)
                #expect(again.header("KF-Max-Bytes-Exceeded") != nil)
            }
        }
    }

    @Test func badFormatQualitiesAreRefused() {
        var configuration = testServiceConfiguration(directory: FileManager.default.temporaryDirectory)
        configuration.formatQuality = ["tiff": 50]
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.formatQuality = ["avif": 0]
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.formatQuality = ["avif": 60, "jpg": 82]
        #expect(
            configuration.quality(for: .avif) == 60 && configuration.quality(for: .jpg) == 82 && configuration.quality(for: .webp) == 80)
    }
}

extension ImageServerOutputTests {
    @Test func jpegXLIsWrittenWhenNamedAndNegotiatedOnlyWhereAllowed() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            origin.serve(try EditingFixtures.folder.data("photo.png"), as: "photo.png")
            let path = { @Sendable (format: OutputFormat?) in
                ImageURLPath.make(source: origin.url("/image/photo.png"), processing: "rotate(90)", format: format, signer: nil)
            }
            var configuration = testServiceConfiguration(directory: directory)
            try await withImageService(configuration) { service in
                let named = try await service.get(path(OutputFormat(fileExtension: "jxl")))
                #expect(named.status == 200 && named.header("Content-Type") == "image/jxl", "\(named.text)")
                #expect(try KingfisherImage.decode(data: named.body).pixelWidth == 43)
                let offered = try await service.get(path(nil), headers: [("Accept", "image/jxl,image/webp,*/*")])
                #expect(offered.header("Content-Type") == "image/webp", "JPEG XL is off by default")
            }
            configuration.negotiatedFormats = ["jxl", "avif", "webp"]
            try await withImageService(configuration) { service in
                let offered = try await service.get(path(nil), headers: [("Accept", "image/jxl,image/webp,*/*")])
                #expect(offered.header("Content-Type") == "image/jxl" && offered.header("Vary") == "Accept")
            }
        }
    }
}

extension ImageServerOutputTests {
    @Test func keepICCAnswersTheSourcesProfile() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            origin.serve(try Fixtures.data("color/displayp3.jpg"), as: "p3.jpg")
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                func get(_ processing: String) async throws -> Data {
                    try await service.get(
                        ImageURLPath.make(source: origin.url("/image/p3.jpg"), processing: processing, format: .jpg, signer: nil)
                    )
                    .body
                }
                let marker = Data("ICC_PROFILE".utf8)
                let kept = try await get("resize(40x30)|>keep(icc)")
                let converted = try await get("resize(40x30)")
                #expect(kept.firstRange(of: marker) != nil && converted.firstRange(of: marker) == nil)
            }
        }
    }
}

extension ImageServerOutputTests {
    /// `keep(exif)` answers the source's EXIF, upright, even when the processed image was in
    /// memory already (it comes without the source's bytes); `keep(copyright)` only the author's
    /// tags; otherwise none.
    @Test func keepEXIFAnswersTheSourcesEXIF() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            origin.serve(try EditingFixtures.folder.data("exif.jpg"), as: "exif.jpg")
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                func get(_ processing: String, _ format: OutputFormat) async throws -> Data {
                    let answer = try await service.get(
                        ImageURLPath.make(source: origin.url("/image/exif.jpg"), processing: processing, format: format, signer: nil))
                    #expect(answer.status == 200, "\(answer.text)")
                    return answer.body
                }
                let plain = try await get("resize(20x0)", .jpg)
                #expect(EXIFSummary(data: plain) == nil)
                for format in [OutputFormat.jpg, .png, .webp] {
                    let kept = try await get("resize(20x0)|>keep(exif)", format)
                    let summary = try #require(EXIFSummary(data: kept), "\(format)")
                    #expect(summary.model == "Canon EOS R5" && summary.artist == "Ada Lovelace")
                    let image = try KingfisherImage.decode(data: kept)
                    #expect(image.pixelWidth == 20 && image.pixelHeight == 29, "upright, and not turned again")
                }
                let copyright = try #require(EXIFSummary(data: try await get("resize(20x0)|>keep(copyright)", .webp)))
                #expect(copyright.copyright == "(c) 2026 Ada Lovelace" && copyright.model == nil)
            }
        }
    }
}
