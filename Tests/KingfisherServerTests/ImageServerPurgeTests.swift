// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherServer
import KingfisherTestKit
import Testing

/// `DELETE /purge/{signature}/-/{source}`: the source's original and every result made from it
/// are removed, and the next request fetches it again. (Across nodes: ImageServerClusterTests.)
@Suite struct ImageServerPurgeTests {
    private static let fixture = "/cacheable/photo_baseline_420.jpg"

    @Test func aPurgeRemovesTheOriginalAndEveryResultSoTheChangedOriginIsServed() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.keys = ["secret"]
            configuration.allowUnsigned = false
            let signer = URLSigner(key: "secret")
            // Fresh for an hour: without a purge, the change below would not be seen for that long.
            let source = origin.url("\(Self.fixture)?cc=max-age%3D3600")
            try await withImageService(configuration) { service in
                let small = ImageURLPath.make(source: source, processing: "resize(40x30)", format: .jpg, signer: signer)
                let large = ImageURLPath.make(source: source, processing: "resize(80x60)", format: .png, signer: signer)
                let before = try await service.get(small)
                #expect(before.status == 200, "\(before.text)")
                #expect(try await service.get(large).status == 200)
                #expect(origin.requests(Self.fixture) == 1)

                origin.replaceFixture(of: Self.fixture, with: "photo_baseline_444.jpg")
                #expect(try await service.get(small).body == before.body, "still fresh: the old answer")

                let purge = ImageURLPath.makePurge(source: source, signer: signer)
                let purged = try await service.get(purge, method: .DELETE)
                #expect(purged.status == 200, "\(purged.text)")
                #expect(purged.text.contains("its original and 2 results removed"), "\(purged.text)")

                // Nothing of the old source is served: both processings fetch the new one, once.
                let after = try await service.get(small)
                #expect(after.status == 200 && after.body != before.body && after.header("ETag") != before.header("ETag"))
                let afterLarge = try await service.get(large)
                #expect(afterLarge.status == 200)
                #expect(origin.requests(Self.fixture) == 2, "one new fetch, kept for the other processing")

                let metrics = try await service.get("/metrics").text
                #expect(metrics.contains(#"kf_purges_total{origin="request"} 1"#), "\(metrics)")
            }
            // The purge held on disk too: a restarted service fetches nothing old.
            try await withImageService(configuration) { service in
                let small = ImageURLPath.make(source: source, processing: "resize(40x30)", format: .jpg, signer: signer)
                let answer = try await service.get(small)
                #expect(answer.status == 200)
                #expect(origin.requests(Self.fixture) == 2, "the new original and result were kept on disk")
            }
        }
    }

    @Test func aPurgeIsSignedApartAndOnlyDeleted() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.keys = ["secret"]
            configuration.allowUnsigned = false
            configuration.allowedSources = [origin.url("/cacheable/").absoluteString]
            let signer = URLSigner(key: "secret")
            let source = origin.url(Self.fixture)
            try await withImageService(configuration) { service in
                let purge = ImageURLPath.makePurge(source: source, signer: signer)
                let get = try await service.get(purge)
                #expect(get.status == 405 && get.header("Allow") == "DELETE", "\(get.text)")
                // Neither an image URL's signature nor an info URL's purges.
                let image = ImageURLPath.make(source: source, processing: nil, format: nil, signer: signer)
                let borrowed = try await service.get(ImageURLPath.purgePrefix + image, method: .DELETE)
                #expect(borrowed.status == 403, "\(borrowed.text)")
                let info = ImageURLPath.makeInfo(source: source, signer: signer)
                let fromInfo = try await service.get(
                    ImageURLPath.purgePrefix + info.dropFirst(ImageURLPath.infoPrefix.count), method: .DELETE)
                #expect(fromInfo.status == 403, "\(fromInfo.text)")
                let unsigned = try await service.get(ImageURLPath.makePurge(source: source, signer: nil), method: .DELETE)
                #expect(unsigned.status == 403)
                let elsewhere = try await service.get(
                    ImageURLPath.makePurge(source: origin.url("/image/a.png"), signer: signer), method: .DELETE)
                #expect(elsewhere.status == 403 && elsewhere.text.contains("refused"), "\(elsewhere.text)")
                // An image path takes no DELETE.
                #expect(try await service.get(image, method: .DELETE).status == 405)
                // A source never served is purged all the same: nothing to remove.
                let nothing = try await service.get(purge, method: .DELETE)
                #expect(nothing.status == 200 && nothing.text.contains("0 results removed"), "\(nothing.text)")
            }
        }
    }

    @Test func kfURLPrintsThePurgePath() async throws {
        let run = try await ProcessRun.kf("url", "--purge", "--key", "secret", "http://127.0.0.1/a.jpg")
        #expect(run.status == 0)
        #expect(
            run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == ImageURLPath.makePurge(source: URL(string: "http://127.0.0.1/a.jpg")!, signer: URLSigner(key: "secret")))
        let both = try await ProcessRun.kf("url", "--purge", "--info", "http://127.0.0.1/a.jpg")
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.stderr)")
    }
}
