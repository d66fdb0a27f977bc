// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// The `kf` executable, run as a user runs it.
@Suite(.timeLimit(.minutes(10))) struct KFCommandTests {
    @Test func infoPrintsJSON() async throws {
        let run = try await ProcessRun.kf("info", Fixtures.directory.appendingPathComponent("gif_disposal_background.gif").path, "--json")
        #expect(run.status == 0)
        let object = try run.json()
        #expect(object["format"] as? String == "GIF")
        #expect(object["width"] as? Int == 20 && object["height"] as? Int == 16)
        #expect(object["frames"] as? Int == 3)
        #expect(object["durations"] as? [Double] == [0.1, 0.1, 0.25])
        #expect(object["loopCount"] as? Int == 3)
        #expect(object["hasAlpha"] as? Bool == true)
        #expect(object["orientation"] as? Int == 1)
    }

    @Test func infoReportsOrientation() async throws {
        let run = try await ProcessRun.kf("info", Fixtures.directory.appendingPathComponent("orientation_8.jpg").path, "--json")
        #expect(run.stdout.contains("\"orientation\":8"))
        #expect(run.stdout.contains("\"width\":48"))
    }

    @Test func processDownsamples() async throws {
        try await withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("thumb.png")
            let run = try await ProcessRun.kf(
                "process", Fixtures.directory.appendingPathComponent("photo_progressive.jpg").path,
                "--processor", "downsample(64x64)", "--output", output.path)
            #expect(run.status == 0, "\(run.stderr)")
            let image = try KingfisherImage.decode(data: Data(contentsOf: output))
            #expect(max(image.pixelWidth, image.pixelHeight) == 64)
        }
    }

    @Test func processWritesTheFormatOfTheExtension() async throws {
        try await withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("thumb.webp")
            let run = try await ProcessRun.kf(
                "process", Fixtures.directory.appendingPathComponent("photo_progressive.jpg").path,
                "--output", output.path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try KingfisherImage.decode(data: Data(contentsOf: output)).format == .WebP)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["thumb.webp"], "no temporary file left")
        }
    }

    @Test func processWritesUprightPixels() async throws {
        try await withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("out.png")
            let run = try await ProcessRun.kf(
                "process", Fixtures.directory.appendingPathComponent("orientation_5.jpg").path, "--output", output.path)
            #expect(run.status == 0)
            let image = try KingfisherImage.decode(data: Data(contentsOf: output))
            let reference = try Fixtures.reference("orientation.ref.png")
            #expect(psnr(image.pixels, reference.pixels) > 40)
        }
    }

    static let refusedInputs = ["html_error.html", "png_100000x100000.png", "sample.heic", "png_lying_idat.png"]

    @Test(arguments: refusedInputs)
    func refusedInputExits65WithOneLineNamingTheFile(_ file: String) async throws {
        try await withTemporaryDirectory { directory in
            let run = try await ProcessRun.kf(
                "process", Fixtures.directory.appendingPathComponent(file).path,
                "--output", directory.appendingPathComponent("out.jpg").path)
            #expect(run.status == 65)
            #expect(run.stderr.split(separator: "\n").count == 1)
            #expect(run.stderr.contains(file))
        }
    }

    @Test(arguments: refusedInputs)
    func refusedInputWritesNoOutput(_ file: String) async throws {
        try await withTemporaryDirectory { directory in
            _ = try await ProcessRun.kf(
                "process", Fixtures.directory.appendingPathComponent(file).path,
                "--output", directory.appendingPathComponent("out.jpg").path)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test func formatFlagOverridesTheExtension() async throws {
        try await withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("out.bin")
            let input = Fixtures.directory.appendingPathComponent("photo.png").path
            let run = try await ProcessRun.kf("process", input, "--output", output.path, "--format", "jpeg", "--quality", "0.5")
            #expect(run.status == 0, "\(run.stderr)")
            let format = try Data(contentsOf: output).kf.imageFileFormat
            #expect(format == .JPEG)
        }
    }

    /// `kf process photo.png --output DIRECTORY/NAME OPTIONS…`, for `[NAME] + OPTIONS` that make
    /// a usage error: a quality out of range, an unknown extension, an unknown processor.
    @Test(arguments: [["out.bin", "--quality", "5"], ["x.xyz"], ["out.bin", "--format", "png", "--processor", "emboss(3)"]])
    func badProcessArgumentsExit64(_ arguments: [String]) async throws {
        try await withTemporaryDirectory { directory in
            let input = Fixtures.directory.appendingPathComponent("photo.png").path
            let output = directory.appendingPathComponent(arguments[0]).path
            let run = try await ProcessRun.run(BuiltExecutable.kf.path, ["process", input, "--output", output] + arguments.dropFirst())
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
        }
    }

    @Test(arguments: [
        "downsample(64x64)", "resize(40x30)", "resize(40x40,fit)", "resize(40x40,fill)", "crop(50x50)",
        "crop(50x50,1,0)", "round(10)", "round(50%,32x32,tl+tr)", "border(#FF0000,3)", "border(#FF000080,3,8)",
        "blur(3)", "overlay(#0000FF,0.5)", "tint(#00FF0040)", "colors(0.1,1.1,0.8,0.3)", "blackwhite",
        "blend(multiply)", "blend(luminosity,0.8,#336699)", "resize(80x80,fit)|>round(8)|>blur(1)",
        "resize(40x0,noenlarge)", "rotate(270)|>flip(v)", "extend(300x300,#FFFFFF)|>pad(4,#00000080)", "trim(30)",
        "sharpen(1,2)|>pixelate(6)|>background(#336699)",
    ])
    func processRunsEverySpecForm(_ spec: String) async throws {
        try await withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("out.png")
            let run = try await ProcessRun.kf(
                "process", Fixtures.directory.appendingPathComponent("photo_alpha.webp").path,
                "--processor", spec, "--output", output.path)
            #expect(run.status == 0, "\(spec): \(run.stderr)")
            let expected = try ImageProcessorSpec.processor(from: spec)
                .process(item: .data(Fixtures.data("photo_alpha.webp")), options: KingfisherParsedOptionsInfo(nil))
            let image = try KingfisherImage.decode(data: Data(contentsOf: output))
            #expect(image.pixelWidth == expected?.pixelWidth && image.pixelHeight == expected?.pixelHeight)
        }
    }

    @Test func processWritesJPEGXL() async throws {
        try await withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("out.bin")
            let input = EditingFixtures.folder.directory.appendingPathComponent("photo.png").path
            let run = try await ProcessRun.kf("process", input, "--format", "jxl", "--processor", "lossless", "--output", output.path)
            #expect(run.status == 0, "\(run.stderr)")
            let written = try KingfisherImage.decode(data: Data(contentsOf: output))
            let photo = try KingfisherImage.decode(data: EditingFixtures.folder.data("photo.png"))
            #expect(written.format == .JXL && written.pixels == photo.pixels)
        }
    }

    @Test func processTakesWatermarksAndPresets() async throws {
        try await withTemporaryDirectory { directory in
            let logo = directory.appendingPathComponent("logo.png")
            try KingfisherImage(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64)).encoded(as: .PNG).write(to: logo)
            let input = EditingFixtures.folder.directory.appendingPathComponent("photo.png").path
            let output = directory.appendingPathComponent("out.png")
            let run = try await ProcessRun.kf(
                "process", input, "--watermark", "logo=\(logo.path)", "--preset", "marked=pad(2)|>watermark(logo,nw)",
                "--processor", "preset(marked)", "--output", output.path)
            #expect(run.status == 0, "\(run.stderr)")
            let image = try KingfisherImage.decode(data: Data(contentsOf: output))
            #expect(image.pixelWidth == 67 && Array(image.pixels[0..<4]) == [255, 255, 255, 255])
            let bad = try await ProcessRun.kf("process", input, "--watermark", "logo", "--output", output.path)
            #expect(bad.status == 64 && bad.stderr.contains("'logo' is not NAME=VALUE"), "\(bad.stderr)")
        }
    }

    @Test func badSpecExits64ShowingTheGrammar() async throws {
        try await withTemporaryDirectory { directory in
            let run = try await ProcessRun.kf(
                "process", Fixtures.directory.appendingPathComponent("photo.png").path,
                "--processor", "resize(10x10,stretch)", "--output", directory.appendingPathComponent("never.png").path)
            #expect(run.status == 64)
            #expect(run.stderr.contains("'stretch' is none of fit|fill|none, noenlarge"))
            #expect(run.stderr.contains("blend(MODE[,ALPHA][,#BG])"))
        }
    }

    @Test func maxPixelsIsAnOption() async throws {
        try await withTemporaryDirectory { directory in
            let input = Fixtures.directory.appendingPathComponent("photo.png").path
            let run = try await ProcessRun.kf(
                "process", input, "--output", directory.appendingPathComponent("o.png").path, "--max-pixels", "1000")
            #expect(run.status == 65)
            #expect(run.stderr.contains("over the limit of 1000 pixels"))
        }
    }
}

/// Decompression bombs are refused by the `kf` process quickly and with little memory. Peak
/// memory is measured by GNU time (Debian package `time`, installed by scripts/install-deps.sh):
/// it forks from its own small process, so the child's peak is kf's alone, unlike a child
/// spawned straight from this large test process, whose peak starts at the parent's.
@Suite(.timeLimit(.minutes(10))) struct DecompressionBombCommandTests {
    static let gnuTime = "/usr/bin/time"
    static let bombs = ["png_100000x100000.png", "jpeg_65000x65000.jpg", "gif_huge_screen.gif", "webp_huge.webp"]

    /// kf's peak resident memory in KB, running `kf ARGUMENTS` under GNU time.
    func peakKB(_ arguments: String...) async throws -> Int? {
        try #require(FileManager.default.isExecutableFile(atPath: Self.gnuTime), "install the Debian package 'time'")
        let measured = try await ProcessRun.run(Self.gnuTime, ["-f", "peak-kb=%M", BuiltExecutable.kf.path] + arguments)
        let line = try #require(measured.stderr.split(separator: "\n").last { $0.hasPrefix("peak-kb=") })
        return Int(line.dropFirst("peak-kb=".count))
    }

    @Test(arguments: bombs)
    func bombIsRefusedFromTheHeader(_ file: String) async throws {
        let run = try await ProcessRun.kf("info", Fixtures.directory.appendingPathComponent(file).path)
        #expect(run.status == 65)
        #expect(run.stderr.contains("over the limit"))
    }

    @Test(arguments: bombs)
    func bombIsRefusedWithLittleMemory(_ file: String) async throws {
        let peak = try #require(try await peakKB("info", Fixtures.directory.appendingPathComponent(file).path))
        #expect(peak > 1000, "a real measurement")
        #expect(peak < 50 * 1024 * SanitizerAllowance.memory, "\(file): peak RSS \(peak / 1024) MB")
    }

    @Test func peakMeasurementSeesALargeDecode() async throws {
        // A 4000x3000 PNG (48 MB of pixels), made here and removed afterwards.
        try await withTemporaryDirectory { directory in
            let big = directory.appendingPathComponent("big.png")
            // One colour: the PNG is quick to make and small, its decoded pixels are not.
            let flat = KingfisherImage(width: 4000, height: 3000, pixels: [UInt8](repeating: 200, count: 4000 * 3000 * 4), hasAlpha: false)
            try flat.encoded(as: .PNG).write(to: big)
            let out = directory.appendingPathComponent("out.png")
            #expect((try await peakKB("process", big.path, "--output", out.path) ?? 0) > 48 * 1024)
        }
    }
}
