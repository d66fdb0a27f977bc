import Foundation
import Testing
@testable import Kingfisher
@testable import KingfisherImaging

/// The committed fixtures (made by Fixtures/make_fixtures.py) and their manifest.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        var format: String
        var purpose: String
        var width: Int?
        var height: Int?
        var frames: Int?
        var durations: [Double]?
        var loopCount: Int?
        var hasAlpha: Bool?
        var orientation: Int?
        var refs: [String]?
        var refKind: String?
        var testDescription: String { file }
    }

    private struct Manifest: Decodable {
        var fixtures: [Entry]
    }

    static let all: [Entry] = {
        let data = try! Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data).fixtures
    }()

    static func entries(purpose: String) -> [Entry] { all.filter { $0.purpose == purpose } }

    static func data(_ file: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(file))
    }

    /// Decodes a reference PNG (8-bit RGBA, written by Pillow).
    static func reference(_ file: String) throws -> KingfisherImage {
        try KingfisherImage.decode(data: data(file))
    }
}

/// Peak signal-to-noise ratio in dB over the RGB channels of two equally sized RGBA buffers.
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var squared = 0.0
    var samples = 0
    for i in stride(from: 0, to: a.count, by: 4) {
        for c in 0..<3 {
            let d = Double(a[i + c]) - Double(b[i + c])
            squared += d * d
        }
        samples += 3
    }
    if squared == 0 { return .infinity }
    return 10 * log10(255 * 255 / (squared / Double(samples)))
}

/// The largest per-channel difference between two equally sized buffers.
func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    precondition(a.count == b.count)
    var worst = 0
    for i in 0..<a.count { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
    return worst
}

/// The coding error reason a throwing expression failed with, or nil if it did not fail that way.
func codingErrorReason(_ body: () throws -> Void) -> ImageCodingError? {
    do {
        try body()
        return nil
    } catch let error as ImageCodingError {
        return error
    } catch let KingfisherError.imageCodingError(reason) {
        return reason
    } catch {
        return nil
    }
}

/// A photo-like RGBA test image with smooth gradients, texture and an optional alpha ramp.
func makeTestImage(width: Int, height: Int, alpha: Bool = false) -> KingfisherImage {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    var seed: UInt32 = 12345
    for y in 0..<height {
        for x in 0..<width {
            seed = seed &* 1_103_515_245 &+ 12345
            let noise = Int(seed >> 28) - 8
            let i = (y * width + x) * 4
            pixels[i] = UInt8(clamping: x * 255 / max(width - 1, 1) + noise)
            pixels[i + 1] = UInt8(clamping: y * 255 / max(height - 1, 1) + noise)
            pixels[i + 2] = UInt8(clamping: 128 + Int(60 * sin(Double(x + y) / 7)) + noise)
            pixels[i + 3] = alpha ? UInt8(clamping: 255 - x * 255 / max(width - 1, 1)) : 255
        }
    }
    return KingfisherImage(width: width, height: height, pixels: pixels, hasAlpha: alpha)
}
