// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherFuzzTargets
import KingfisherTestKit
import Testing

/// Replays through each fuzz target every input that once made it fail (committed under
/// Fixtures/fuzz/TARGET/ once fixed), and runs the targets over the seeds `scripts/fuzz.sh`
/// starts from, so a target that would trap on valid input is caught here too. A failure here
/// is a crash of the test process.
@Suite(.timeLimit(.minutes(10))) struct FuzzRegressionTests {
    static let regressionDirectory = Fixtures.directory.appendingPathComponent("fuzz")

    static func files(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func findingsStayFixed(_ target: FuzzTarget) throws {
        for file in Self.files(in: Self.regressionDirectory.appendingPathComponent(target.rawValue)) {
            target.run(try Data(contentsOf: file))
        }
    }

    @Test func targetsTakeTheSeeds() throws {
        let images = Self.files(in: Fixtures.directory).filter { ["jpg", "png", "gif", "webp"].contains($0.pathExtension) }
        #expect(images.count > 20)
        for image in images {
            let data = try Data(contentsOf: image)
            FuzzTarget.decode.run(data)
            FuzzTarget.diskCache.run(data)
            FuzzTarget.downsample.run(Data([64]) + data)
        }
        // Tests/Fixtures → the repository → Fuzz/.
        let seeds = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/processor-seeds.txt")
        for spec in try String(contentsOf: seeds, encoding: .utf8).split(separator: "\n") {
            FuzzTarget.processor.run(Data(spec.utf8))
        }
        FuzzTarget.exif.run(Data("Exif\0\0MM\0*\0\0\0\u{8}\0\u{1}\u{1}\u{12}\0\u{3}\0\0\0\u{1}\0\u{6}\0\0\0\0\0\0".utf8))
    }
}
