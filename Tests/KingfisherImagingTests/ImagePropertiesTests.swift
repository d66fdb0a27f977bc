// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// ``ImageProperties`` reads from the headers what a decode of the same file reports.
@Suite struct ImagePropertiesTests {
    /// Every image fixture that decodes, in every fixture folder.
    static let files: [String] = {
        let manager = FileManager.default
        let root = Fixtures.directory
        let folders = ["", "apng", "bmff", "raster", "lenient", "color"]
        return folders.flatMap { folder -> [String] in
            let directory = folder.isEmpty ? root : root.appendingPathComponent(folder)
            let names = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { !$0.hasSuffix(".ref.png") && !$0.hasSuffix(".json") && !$0.hasSuffix(".py") && !$0.hasSuffix(".icc") }
                .map { folder.isEmpty ? $0 : "\(folder)/\($0)" }
        }.sorted().filter { name in
            guard let data = try? Fixtures.data(name), data.kf.imageFileFormat != .unknown else { return false }
            return (try? KingfisherImage.decode(data: data)) != nil
        }
    }()

    @Test(arguments: files)
    func headersSayWhatADecodeReports(_ file: String) throws {
        let data = try Fixtures.data(file)
        let properties = try ImageProperties(data: data)
        let image = try KingfisherImage.decode(data: data, options: ImageCreatingOptions(preserveColorProfile: true))
        #expect(properties.format == image.format)
        #expect(
            properties.pixelWidth == image.pixelWidth && properties.pixelHeight == image.pixelHeight,
            "\(file): \(properties.pixelWidth)x\(properties.pixelHeight), decoded \(image.pixelWidth)x\(image.pixelHeight)")
        #expect(properties.frameCount == image.frameCount, "\(file): \(properties.frameCount) frames")
        #expect(properties.frameDurations == (0..<image.frameCount).map(image.frameDuration(at:)), "\(file)")
        #expect(properties.loopCount == image.loopCount, "\(file): loop count \(properties.loopCount)")
        #expect(properties.exifOrientation == image.exifOrientation, "\(file): orientation")
        // The header says whether the file can hold transparency; libtiff's RGBA path finds
        // out from the pixels.
        if image.format == .TIFF {
            #expect(!image.hasAlpha || properties.hasAlpha, "\(file): alpha")
        } else {
            #expect(properties.hasAlpha == image.hasAlpha, "\(file): alpha \(properties.hasAlpha)")
        }
        if let profile = image.colorProfile {
            #expect(properties.colorProfile == profile, "\(file): colour profile")
            #expect(properties.colorSpace == profile.description)
        }
    }

    @Test func headersAreCheckedAgainstTheLimitsWithoutDecoding() throws {
        let data = try Fixtures.data("jpeg_65000x65000.jpg")
        let reason = codingErrorReason { _ = try ImageProperties(data: data) }
        guard case .tooManyPixels(.JPEG, 65000, 65000, _, _)? = reason else {
            Issue.record("expected tooManyPixels, got \(String(describing: reason))")
            return
        }
        let allowed = try ImageProperties(data: data, options: ImageCreatingOptions(maxPixelCount: 65000 * 65000))
        #expect(allowed.pixelWidth == 65000)
    }

    @Test func bytesThatAreNoImageSaySo() {
        let reason = codingErrorReason { _ = try ImageProperties(data: Data("<html><body>".utf8)) }
        #expect(reason == .unknownFormat(description: "an HTML document"))
    }
}
