import Foundation
import Testing
@testable import Kingfisher
@testable import KingfisherImaging

/// The `kf` executable, run as a user runs it.
@Suite struct KFCommandTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var executable: URL {
        // The test bundle sits in the build products directory, next to `kf`.
        var directory = Bundle.main.bundleURL
        if !FileManager.default.fileExists(atPath: directory.appendingPathComponent("kf").path) {
            directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        }
        return directory.appendingPathComponent("kf")
    }

    func kf(_ arguments: String...) throws -> Run {
        try run(Self.executable.path, arguments)
    }

    func run(_ executable: String, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kf-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func infoPrintsJSON() throws {
        let run = try kf("info", Fixtures.directory.appendingPathComponent("gif_disposal_background.gif").path, "--json")
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "GIF")
        #expect(object["width"] as? Int == 20 && object["height"] as? Int == 16)
        #expect(object["frames"] as? Int == 3)
        #expect(object["durations"] as? [Double] == [0.1, 0.1, 0.25])
        #expect(object["loopCount"] as? Int == 3)
        #expect(object["hasAlpha"] as? Bool == true)
        #expect(object["orientation"] as? Int == 1)
    }

    @Test func infoReportsOrientation() throws {
        let run = try kf("info", Fixtures.directory.appendingPathComponent("orientation_8.jpg").path, "--json")
        #expect(run.stdout.contains("\"orientation\":8"))
        #expect(run.stdout.contains("\"width\":48"))
    }

    @Test func processDownsamplesAndWritesTheFormatOfTheExtension() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("thumb.webp")
        let run = try kf("process", Fixtures.directory.appendingPathComponent("photo_progressive.jpg").path,
                         "--processor", "downsample(64x64)", "--output", output.path)
        #expect(run.status == 0, "\(run.stderr)")
        let image = try KingfisherImage.decode(data: Data(contentsOf: output))
        #expect(image.format == .WebP)
        #expect(max(image.pixelWidth, image.pixelHeight) == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["thumb.webp"])
    }

    @Test func processWritesUprightPixels() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.png")
        let run = try kf("process", Fixtures.directory.appendingPathComponent("orientation_5.jpg").path, "--output", output.path)
        #expect(run.status == 0)
        let image = try KingfisherImage.decode(data: Data(contentsOf: output))
        let reference = try Fixtures.reference("orientation.ref.png")
        #expect(psnr(image.pixels, reference.pixels) > 40)
    }

    @Test(arguments: ["html_error.html", "png_100000x100000.png", "sample.heic", "png_lying_idat.png"])
    func refusedInputExits65WithOneLineAndNoOutput(_ file: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.jpg")
        let run = try kf("process", Fixtures.directory.appendingPathComponent(file).path, "--output", output.path)
        #expect(run.status == 65)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains(file))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func formatFlagOverridesTheExtensionAndQualityIsChecked() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.bin")
        let input = Fixtures.directory.appendingPathComponent("photo.png").path
        #expect(try kf("process", input, "--output", output.path, "--format", "jpeg", "--quality", "0.5").status == 0)
        #expect(try Data(contentsOf: output).kf.imageFormat == .JPEG)
        #expect(try kf("process", input, "--output", output.path, "--quality", "5").status == 64)
        #expect(try kf("process", input, "--output", directory.appendingPathComponent("x.xyz").path).status == 64)
        #expect(try kf("process", input, "--output", output.path, "--format", "png", "--processor", "sharpen(3)").status == 64)
    }

    @Test(arguments: ["downsample(64x64)", "resize(40x30)", "resize(40x40,fit)", "resize(40x40,fill)", "crop(50x50)",
                      "crop(50x50,1,0)", "round(10)", "round(50%,32x32,tl+tr)", "border(#FF0000,3)", "border(#FF000080,3,8)",
                      "blur(3)", "overlay(#0000FF,0.5)", "tint(#00FF0040)", "colors(0.1,1.1,0.8,0.3)", "blackwhite",
                      "blend(multiply)", "blend(luminosity,0.8,#336699)", "resize(80x80,fit)|>round(8)|>blur(1)"])
    func processRunsEverySpecForm(_ spec: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.png")
        let run = try kf("process", Fixtures.directory.appendingPathComponent("photo_alpha.webp").path,
                         "--processor", spec, "--output", output.path)
        #expect(run.status == 0, "\(spec): \(run.stderr)")
        let expected = try ImageProcessorSpec.processor(from: spec)
            .process(item: .data(Fixtures.data("photo_alpha.webp")), options: KingfisherParsedOptionsInfo(nil))
        let image = try KingfisherImage.decode(data: Data(contentsOf: output))
        #expect(image.pixelWidth == expected?.pixelWidth && image.pixelHeight == expected?.pixelHeight)
    }

    @Test func badSpecExits64ShowingTheGrammar() throws {
        let run = try kf("process", Fixtures.directory.appendingPathComponent("photo.png").path,
                         "--processor", "resize(10x10,stretch)", "--output", "/tmp/never.png")
        #expect(run.status == 64)
        #expect(run.stderr.contains("content mode must be fit, fill or none"))
        #expect(run.stderr.contains("blend(MODE[,ALPHA][,#BG])"))
    }

    @Test func maxPixelsIsAnOption() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Fixtures.directory.appendingPathComponent("photo.png").path
        let run = try kf("process", input, "--output", directory.appendingPathComponent("o.png").path, "--max-pixels", "1000")
        #expect(run.status == 65)
        #expect(run.stderr.contains("over the limit of 1000 pixels"))
    }
}

/// Decompression bombs are refused by the `kf` process quickly and with little memory. Peak
/// memory is measured by GNU time (Debian package `time`, installed by scripts/install-deps.sh):
/// it forks from its own small process, so the child's peak is kf's alone, unlike a child
/// spawned straight from this large test process, whose peak starts at the parent's.
@Suite struct DecompressionBombCommandTests {
    static let gnuTime = "/usr/bin/time"

    @Test(arguments: ["png_100000x100000.png", "jpeg_65000x65000.jpg", "gif_huge_screen.gif", "webp_huge.webp"])
    func bombIsRefusedQuicklyWithLittleMemory(_ file: String) throws {
        let path = Fixtures.directory.appendingPathComponent(file).path
        let start = ContinuousClock.now
        let run = try KFCommandTests().kf("info", path)
        let elapsed = ContinuousClock.now - start
        #expect(run.status == 65)
        #expect(run.stderr.contains("over the limit"))
        #expect(elapsed < .milliseconds(500) * SanitizerAllowance.time, "\(file): \(elapsed) for the whole process")

        try #require(FileManager.default.isExecutableFile(atPath: Self.gnuTime), "install the Debian package 'time'")
        let measured = try KFCommandTests().run(Self.gnuTime, ["-f", "peak-kb=%M", KFCommandTests.executable.path, "info", path])
        let line = try #require(measured.stderr.split(separator: "\n").last { $0.hasPrefix("peak-kb=") })
        let peakKB = try #require(Int(line.dropFirst("peak-kb=".count)))
        #expect(peakKB > 1000, "a real measurement")
        #expect(peakKB < 50 * 1024 * SanitizerAllowance.memory, "\(file): peak RSS \(peakKB / 1024) MB")
    }

    @Test func peakMeasurementSeesALargeDecode() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.gnuTime), "install the Debian package 'time'")
        // A 4000x3000 PNG (48 MB of pixels), made here and removed afterwards.
        let directory = try KFCommandTests().temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = directory.appendingPathComponent("big.png")
        try makeTestImage(width: 4000, height: 3000).encoded(as: .PNG).write(to: big)
        let measured = try KFCommandTests().run(Self.gnuTime, ["-f", "peak-kb=%M", KFCommandTests.executable.path, "info", big.path])
        let line = try #require(measured.stderr.split(separator: "\n").last { $0.hasPrefix("peak-kb=") })
        #expect((Int(line.dropFirst("peak-kb=".count)) ?? 0) > 48 * 1024)
    }
}
