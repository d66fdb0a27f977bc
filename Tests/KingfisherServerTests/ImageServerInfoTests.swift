// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherServer
import KingfisherTestKit
import Testing

/// `GET /info/{signature}/-/{source}`: the source's information as JSON, signed apart from its
/// images, the position only with `infoGPS`.
@Suite struct ImageServerInfoTests {
    @Test func infoAnswersTheSourcesInformation() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            let photo = try EditingFixtures.folder.data("exif.jpg")
            origin.serve(photo, as: "exif.jpg")
            let source = origin.url("/image/exif.jpg")
            var configuration = testServiceConfiguration(directory: directory)
            configuration.keys = ["secret"]
            let signer = URLSigner(key: "secret")
            try await withImageService(configuration) { service in
                let answer = try await service.get(ImageURLPath.makeInfo(source: source, signer: signer))
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.header("Content-Type") == "application/json" && answer.header("ETag") != nil)
                let info = try JSONDecoder().decode(ImageInfo.self, from: answer.body)
                #expect(info == (try ImageInfo(data: photo)))
                #expect(info.exif?.model == "Canon EOS R5" && info.exif?.latitude == nil && !answer.text.contains("latitude"))
                // An image URL's signature does not open the source's information.
                let image = ImageURLPath.make(source: source, processing: nil, format: nil, signer: signer)
                let borrowed = try await service.get(ImageURLPath.infoPrefix + image)
                #expect(borrowed.status == 403, "\(borrowed.text)")
                let withProcessing = ImageURLPath.make(source: source, processing: "blur(1)", format: nil, signer: nil)
                    .dropFirst("/unsafe".count)
                let processed = try await service.get(
                    "\(ImageURLPath.infoPrefix)/\(signer.signature(forPath: ImageURLPath.infoPrefix + withProcessing))\(withProcessing)")
                #expect(processed.status == 400 && processed.text.contains("takes no processing"), "\(processed.text)")
            }
            configuration.infoGPS = true
            try await withImageService(configuration) { service in
                let answer = try await service.get(ImageURLPath.makeInfo(source: source, signer: signer))
                let info = try JSONDecoder().decode(ImageInfo.self, from: answer.body)
                #expect(info.exif?.latitude != nil && info.exif?.longitude != nil)
            }
        }
    }

    @Test func kfURLPrintsTheInfoPath() async throws {
        let run = try await ProcessRun.kf("url", "--info", "--key", "secret", "http://127.0.0.1/a.jpg")
        #expect(run.status == 0)
        #expect(
            run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == ImageURLPath.makeInfo(source: URL(string: "http://127.0.0.1/a.jpg")!, signer: URLSigner(key: "secret")))
        let refused = try await ProcessRun.kf("url", "--info", "--processor", "blur(1)", "http://127.0.0.1/a.jpg")
        #expect(refused.status == 64)
    }
}
