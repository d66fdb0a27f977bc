// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherServer
import KingfisherTestKit
import Testing

/// The editing steps through the service: each answers, as PNG, the pixels Pillow makes
/// (Fixtures/editing), as the library does.
@Suite struct ImageServerEditingTests {
    @Test func everyEditingStepAnswersWhatPillowMakes() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            for source in Set(EditingFixtures.all.map(\.source)) {
                origin.serve(try EditingFixtures.folder.data(source), as: source)
            }
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                for entry in EditingFixtures.all {
                    let answer = try await service.get(
                        ImageURLPath.make(source: origin.url("/image/\(entry.source)"), processing: entry.spec, format: .png, signer: nil))
                    #expect(answer.status == 200, "\(entry.spec): \(answer.text)")
                    guard answer.status == 200 else { continue }
                    #expect(try entry.shortfall(of: KingfisherImage.decode(data: answer.body)) == nil)
                }
                let refused = try await service.get(
                    ImageURLPath.make(source: origin.url("/image/photo.png"), processing: "rotate(45)", format: .png, signer: nil))
                #expect(refused.status == 400 && refused.text.contains("degrees must be 90, 180 or 270"), "\(refused.text)")
            }
        }
    }

    @Test func aSmartFillAnswersTheLibrarysCrop() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            let entry = try #require(SaliencyFixtures.all.first { $0.file == "face_middle_textured.jpg" })
            let data = try SaliencyFixtures.folder.data(entry.file)
            origin.serve(data, as: entry.file)
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let answer = try await service.get(
                    ImageURLPath.make(source: origin.url("/image/\(entry.file)"), processing: entry.spec, format: .png, signer: nil))
                #expect(answer.status == 200, "\(answer.text)")
                let expected = try ImageProcessorSpec.processor(from: entry.spec).process(.data(data), in: ImageProcessingContext())
                #expect(try KingfisherImage.decode(data: answer.body).pixels == expected.pixels)
            }
        }
    }
}
