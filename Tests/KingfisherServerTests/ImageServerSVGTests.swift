// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherServer
import KingfisherTestKit
import Testing

/// SVG sources: drawn at the size asked for and answered as PNG (or the negotiated format),
/// never as SVG, whose scripts and links a browser would run on the service's origin.
@Suite struct ImageServerSVGTests {
    @Test func anSVGSourceIsAnsweredAsARasterDrawnAtTheAskedSize() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            origin.serve(try Fixtures.data("svg/shapes.svg"), as: "shapes.svg")
            let source = origin.url("/image/shapes.svg")
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let resized = try await service.get(
                    ImageURLPath.make(source: source, processing: "resize(400x200)", format: nil, signer: nil))
                #expect(resized.status == 200, "\(resized.text)")
                #expect(resized.header("Content-Type") == "image/png")
                let image = try KingfisherImage.decode(data: resized.body)
                #expect(image.pixelWidth == 400 && image.pixelHeight == 200)
                let edge = { (x: Int, y: Int) in Array(image.pixels[((y * 400 + x) * 4)..<((y * 400 + x) * 4 + 4)]) }
                #expect(edge(199, 99) == [255, 0, 0, 255] && edge(200, 99) == [0, 255, 0, 255], "drawn at 400x200, not enlarged")

                // Unprocessed, to a browser that says it takes SVG: still a raster.
                let plain = try await service.get(
                    ImageURLPath.make(source: source, processing: nil, format: nil, signer: nil), headers: [("Accept", "image/svg+xml,*/*")]
                )
                #expect(plain.status == 200, "\(plain.text)")
                #expect(plain.header("Content-Type") == "image/png")
                #expect(try KingfisherImage.decode(data: plain.body).pixelWidth == 20)
                #expect(OutputFormat(fileExtension: "svg") == nil, "SVG is never an output")
            }
        }
    }

    @Test func hostileSVGSourcesAreRefusedWithWhy() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            for file in ["billion_laughs.svg", "entity_loop.svg", "huge_declared.svg"] {
                origin.serve(try Fixtures.data("svg/\(file)"), as: file)
            }
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let laughs = try await service.get(
                    ImageURLPath.make(
                        source: origin.url("/image/billion_laughs.svg"), processing: "resize(100x100)", format: nil, signer: nil))
                #expect(laughs.status == 413 && laughs.text.contains("its entities would add more than"), "\(laughs.status) \(laughs.text)")
                let loop = try await service.get(
                    ImageURLPath.make(source: origin.url("/image/entity_loop.svg"), processing: "resize(100x100)", format: nil, signer: nil)
                )
                #expect(loop.status == 422 && loop.text.contains("refers to itself"), "\(loop.status) \(loop.text)")
                let huge = try await service.get(
                    ImageURLPath.make(
                        source: origin.url("/image/huge_declared.svg"), processing: "resize(100x100)", format: nil, signer: nil))
                #expect(huge.status == 413 && huge.text.contains("over the limit"), "\(huge.status) \(huge.text)")
            }
        }
    }
}
