// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherImaging
import KingfisherTestKit
import Testing

/// The example gallery (`gtk-gallery`) in a real GTK window under Xvfb, loading from a loopback
/// origin: its screenshots' pixels.
@Suite(.serialized)
struct GalleryWindowTests {
    /// The gallery's placeholder and failure image (Examples/GTKGallery).
    static let placeholderGrey = RGB(128, 128, 128)
    static let failureRed = RGB(160, 0, 0)
    static let colors = [RGB(255, 0, 0), RGB(0, 255, 0), RGB(0, 0, 255), RGB(255, 255, 0), RGB(0, 255, 255)]

    /// A 200 x 100 image of one colour, as PNG.
    static func png(_ color: RGB, width: Int = 200, height: Int = 100) -> Data {
        KingfisherImage(width: width, height: height, pixels: pixels(color, count: width * height), hasAlpha: false)
            .kf.pngRepresentation()!
    }

    /// `count` opaque pixels of one colour.
    static func pixels(_ color: RGB, count: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: count * 4)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for offset in stride(from: 0, to: buffer.count, by: 4) {
                buffer[offset] = UInt8(color.red)
                buffer[offset + 1] = UInt8(color.green)
                buffer[offset + 2] = UInt8(color.blue)
            }
        }
        return pixels
    }

    static let gallery = BuiltExecutable.directory.appendingPathComponent("gtk-gallery")

    /// Runs the gallery on `urls` with 3 columns of 100-pixel cells and returns its screenshot.
    static func screenshot(_ urls: [URL], _ extra: [String] = [], on display: XvfbDisplay) async throws -> WindowScreenshot {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("window.png")
            let run = try await display.run(
                gallery, urls.map(\.absoluteString) + ["--columns", "3", "--cell", "100", "--screenshot", path.path] + extra,
                environment: ["XDG_CACHE_HOME=\(directory.path)"])
            #expect(run.status == 0, "gtk-gallery failed: \(run.stderr)")
            return try WindowScreenshot(contentsOf: path)
        }
    }

    /// The centre of cell `index` (row-major, 3 columns of 100 pixels).
    static func center(of index: Int) -> (Int, Int) { (index % 3 * 100 + 50, index / 3 * 100 + 50) }

    @Test func imagesLandInTheirCellsAndA404ShowsTheFailureImage() async throws {
        try await withTestHTTPServer { server in
            for (index, color) in Self.colors.enumerated() { server.serve(Self.png(color), as: "cell\(index).png") }
            let urls = Self.colors.indices.map { server.url("/image/cell\($0).png") } + [server.url("/status/404")]
            let shot = try await withXvfb { try await Self.screenshot(urls, on: $0) }
            #expect(shot.width == 300 && shot.height == 300)
            for (index, color) in Self.colors.enumerated() {
                let (x, y) = Self.center(of: index)
                #expect(shot.color(x, y).isClose(to: color), "cell \(index) shows \(shot.color(x, y)), not \(color)")
                // 200 x 100 fitted in 100 x 100: 100 x 50, centred; above it the window's background.
                #expect(!shot.color(x, y - 40).isClose(to: color), "cell \(index) is not aspect-fit")
            }
            let (x, y) = Self.center(of: 5)
            #expect(shot.color(x, y).isClose(to: Self.failureRed), "the 404 cell shows \(shot.color(x, y))")
        }
    }

    @Test func aSlowSourceShowsThePlaceholderAndASpinner() async throws {
        try await withTestHTTPServer { server in
            server.serve(Self.png(Self.colors[0]), as: "fast.png")
            let urls = [server.url("/image/fast.png"), server.url("/hang")]
            let shot = try await withXvfb { try await Self.screenshot(urls, ["--screenshot-after", "2"], on: $0) }
            let (x, y) = Self.center(of: 1)
            // The placeholder fills the cell; the spinner turns in its middle.
            #expect(shot.color(x - 40, y - 40).isClose(to: Self.placeholderGrey), "corner: \(shot.color(x - 40, y - 40))")
            let middle = shot.colors(around: x, y, side: 24)
            #expect(middle.contains { !$0.isClose(to: Self.placeholderGrey, tolerance: 20) }, "no spinner in the middle of the cell")
            #expect(server.requests("/hang") == 1)
        }
    }

    @Test func aFadePassesThroughAnIntermediateFrame() async throws {
        try await withTestHTTPServer { server in
            server.serve(Self.png(Self.colors[0]), as: "red.png")
            // A fade of twenty seconds, seen six seconds after start (the image arrives well before,
            // even on a busy machine): between the placeholder and the image.
            let shot = try await withXvfb {
                try await Self.screenshot([server.url("/image/red.png")], ["--fade", "20", "--screenshot-after", "6"], on: $0)
            }
            let seen = shot.color(50, 50)
            #expect(seen.red > 128 + 2 && seen.red < 255 - 10, "red channel \(seen.red) is not between grey and red")
            #expect(seen.green < 128 - 2 && seen.green > 10, "green channel \(seen.green) is not between grey and red")
        }
    }

    @Test func anAnimatedGIFShowsDifferentFramesAtDifferentTimes() async throws {
        try await withTestHTTPServer { server in
            // Red for eight seconds, then blue for eight, forever. Seen at 6 s and 14 s after start,
            // the GIF showing within 6 s of start (even on a busy machine): red, then blue.
            let frames = [RGB(255, 0, 0), RGB(0, 0, 255)].map { ImageFrame(pixels: Self.pixels($0, count: 100 * 100), duration: 8) }
            server.serve(try KingfisherImage(width: 100, height: 100, frames: frames).encoded(as: .GIF), as: "anim.gif")
            let url = server.url("/image/anim.gif")
            let (early, late) = try await withXvfb { display in
                (
                    try await Self.screenshot([url], ["--fade", "0", "--screenshot-after", "6"], on: display),
                    try await Self.screenshot([url], ["--fade", "0", "--screenshot-after", "14"], on: display)
                )
            }
            #expect(early.color(50, 50).isClose(to: RGB(255, 0, 0)), "at 6 s: \(early.color(50, 50))")
            #expect(late.color(50, 50).isClose(to: RGB(0, 0, 255)), "at 14 s: \(late.color(50, 50))")
        }
    }
}
