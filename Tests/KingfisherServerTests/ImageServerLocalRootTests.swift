// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherServer
import KingfisherTestKit
import Testing

/// `local:///PATH` sources under `--local-root`: served from the directory, and never from
/// outside it, by `..` or by a symbolic link.
@Suite struct ImageServerLocalRootTests {
    @Test func localSourcesStayUnderTheRoot() async throws {
        try await withTemporaryDirectory { directory in
            let root = directory.appendingPathComponent("root/photos", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let photo = try EditingFixtures.folder.data("photo.png")
            try photo.write(to: root.appendingPathComponent("a.png"))
            try photo.write(to: directory.appendingPathComponent("outside.png"))
            try FileManager.default.createSymbolicLink(
                atPath: root.appendingPathComponent("link.png").path,
                withDestinationPath: directory.appendingPathComponent("outside.png").path)
            try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("inside.png").path, withDestinationPath: "a.png")
            var configuration = testServiceConfiguration(directory: directory.appendingPathComponent("cache"))
            configuration.localRoot = directory.appendingPathComponent("root").path
            try await withImageService(configuration) { service in
                func get(_ path: String, _ processing: String? = "rotate(90)") async throws -> ImageServiceUnderTest.Answer {
                    try await service.get(
                        ImageURLPath.make(source: URL(string: "local://\(path)")!, processing: processing, format: .png, signer: nil))
                }
                for path in ["/photos/a.png", "/photos/inside.png", "/photos/../photos/a.png"] {
                    let answer = try await get(path)
                    #expect(answer.status == 200, "\(path): \(answer.text)")
                    #expect(try KingfisherImage.decode(data: answer.body).pixelWidth == 43)
                }
                let escapes = [
                    ("/../outside.png", "leads outside the local root"), ("/photos/link.png", "leads outside the local root"),
                    ("/photos", "is not a regular file"), ("/photos/none.png", "cannot be read"),
                ]
                for (path, reason) in escapes {
                    let answer = try await get(path)
                    #expect(answer.status == 403 && answer.text.contains(reason), "\(path): \(answer.status) \(answer.text)")
                }
                let info = try await service.get(ImageURLPath.makeInfo(source: URL(string: "local:///photos/a.png")!, signer: nil))
                #expect(info.status == 200 && info.text.contains("\"width\":63"), "\(info.text)")
            }
            configuration.localRoot = nil
            try await withImageService(configuration) { service in
                let answer = try await service.get(
                    ImageURLPath.make(source: URL(string: "local:///photos/a.png")!, processing: nil, format: .png, signer: nil))
                #expect(answer.status == 403 && answer.text.contains("local sources are not served here"), "\(answer.text)")
            }
        }
    }

    @Test func aRootThatIsNoDirectoryStopsTheService() {
        var configuration = testServiceConfiguration(directory: FileManager.default.temporaryDirectory)
        configuration.localRoot = "/nonexistent/root"
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
    }
}
