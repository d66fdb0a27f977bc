// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherServer
import KingfisherTestKit
import Testing

/// Watermarks and presets named in the service's settings, and `presetsOnly`.
@Suite struct ImageServerPresetTests {
    private static func settings(_ directory: URL) throws -> ImageServerConfiguration {
        let logo = KingfisherImage(width: 8, height: 4, pixels: Array(repeating: [255, 0, 0, 255] as [UInt8], count: 32).flatMap { $0 })
        let path = directory.appendingPathComponent("logo.png")
        try logo.encoded(as: .PNG).write(to: path)
        var configuration = testServiceConfiguration(directory: directory)
        configuration.watermarks = ["logo": path.path]
        configuration.presets = ["card": "fill(40x30)|>watermark(logo,se,0.5)"]
        return configuration
    }

    @Test func watermarksAndPresetsOfTheSettingsAreServed() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            let photo = try EditingFixtures.folder.data("photo.png")
            origin.serve(photo, as: "photo.png")
            let configuration = try Self.settings(directory)
            try await withImageService(configuration) { service in
                for spec in ["watermark(logo,se)", "preset(card)", "preset(card)|>flip(h)"] {
                    let answer = try await service.get(
                        ImageURLPath.make(source: origin.url("/image/photo.png"), processing: spec, format: .png, signer: nil))
                    #expect(answer.status == 200, "\(spec): \(answer.text)")
                    let expected = try configuration.grammar().processor(from: spec).process(.data(photo), in: ImageProcessingContext())
                    #expect(try KingfisherImage.decode(data: answer.body).pixels == expected.pixels, "\(spec)")
                }
                let unknown = try await service.get(
                    ImageURLPath.make(source: origin.url("/image/photo.png"), processing: "watermark(brand)", format: .png, signer: nil))
                #expect(unknown.status == 400 && unknown.text.contains("name must be logo, not 'brand'"), "\(unknown.text)")
                let catalogue = try await service.get("/playground/catalogue.json")
                #expect(catalogue.text.contains("\"card\"") && catalogue.text.contains("\"watermark\""))
            }
        }
    }

    @Test func presetsOnlyRefusesAnythingElse() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            origin.serve(try EditingFixtures.folder.data("photo.png"), as: "photo.png")
            var configuration = try Self.settings(directory)
            configuration.presetsOnly = true
            try await withImageService(configuration) { service in
                func get(_ processing: String?) async throws -> ImageServiceUnderTest.Answer {
                    try await service.get(
                        ImageURLPath.make(source: origin.url("/image/photo.png"), processing: processing, format: .png, signer: nil))
                }
                #expect(try await get("preset(card)").status == 200)
                let other = try await get("preset(card)|>blur(2)")
                #expect(other.status == 403 && other.text.contains("only presets are served here: 'blur(2)'"), "\(other.text)")
                #expect(try await get(nil).status == 200, "no processing is no step to refuse")
            }
        }
    }

    @Test func unusableWatermarksAndPresetsStopTheServiceFromStarting() throws {
        var configuration = testServiceConfiguration(directory: FileManager.default.temporaryDirectory)
        configuration.watermarks = ["logo": "/nonexistent/logo.png"]
        #expect(throws: ConfigurationError.self) { try configuration.grammar() }
        #expect((try? configuration.grammar()) == nil)
        do {
            _ = try configuration.grammar()
        } catch {
            #expect(error.description.hasPrefix("watermark 'logo': cannot use /nonexistent/logo.png"), "\(error)")
        }
        configuration.watermarks = [:]
        configuration.presets = ["bad": "resize(10)"]
        do {
            _ = try configuration.grammar()
            Issue.record("a bad preset was accepted")
        } catch {
            #expect(error.description.contains("preset 'bad'") && !error.description.contains("\n"), "\(error)")
        }
    }
}
