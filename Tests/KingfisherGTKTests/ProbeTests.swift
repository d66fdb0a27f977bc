// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherImaging
import KingfisherTestKit
import Testing

/// Scenarios run inside a real GTK application (KingfisherGTKProbe) under Xvfb.
@Suite(.serialized)
struct ProbeTests {
    static let probe = BuiltExecutable.directory.appendingPathComponent("KingfisherGTKProbe")

    @Test func mainActorWorkRunsOnGTKsThreadInsideItsLoop() async throws {
        let run = try await withXvfb { try await $0.run(Self.probe, ["main-actor"]) }
        #expect(run.status == 0, "the probe failed: \(run.stderr)")
        let report = try run.json()
        for kind in ["task", "mainActorRun", "dispatchMain", "afterAwaitingOtherWork"] {
            let place = report[kind] as? [String: Bool]
            #expect(place == ["mainThread": true, "insideGLibLoop": true], "\(kind) ran at \(String(describing: place))")
        }
    }

    @Test func aReusedViewNeverShowsItsPreviousImageAndCancelsItsRequest() async throws {
        try await withTestHTTPServer { server in
            server.serve(GalleryWindowTests.png(RGB(255, 0, 0), width: 100, height: 100), as: "old.png")
            server.serve(GalleryWindowTests.png(RGB(0, 0, 255), width: 100, height: 100), as: "new.png")
            try await withTemporaryDirectory { directory in
                let path = directory.appendingPathComponent("window.png")
                // The old image trickles in over seconds; the new one at once.
                let slow = server.url("/slow/old.png?chunk=16&interval=200")
                let run = try await withXvfb {
                    try await $0.run(Self.probe, ["reuse", slow.absoluteString, server.url("/image/new.png").absoluteString, path.path])
                }
                #expect(run.status == 0, "the probe failed: \(run.stderr)")
                let report = try run.json()
                #expect(report["saveError"] == nil, "the probe said: \(run.stdout)")
                #expect(report["slow"] as? String == "notCurrentSourceTask")
                #expect(report["fast"] as? String == "shown")
                let shot = try WindowScreenshot(contentsOf: path)
                #expect(shot.color(50, 50).isClose(to: RGB(0, 0, 255)), "the view shows \(shot.color(50, 50))")
                // The old request was cancelled (before it was sent, or aborted on the way), not
                // left to finish: the probe has exited, so a finished download would be counted.
                #expect(server.completed("/slow/old.png") == 0)
            }
        }
    }

    @Test func viewsShareOneTexturePerImageAndLoadAtTheScreensScale() async throws {
        // GDK_SCALE=2: the X11 backend's scale factor for every monitor.
        let run = try await withXvfb { try await $0.run(Self.probe, ["textures-and-scale"], environment: ["GDK_SCALE=2"]) }
        #expect(run.status == 0, "the probe failed: \(run.stderr)")
        let report = try run.json()
        #expect(report["sharedTexture"] as? Bool == true)
        #expect(report["widgetScale"] as? Int == 2)
        #expect(report["defaultScale"] as? Double == 2, "without a scaleFactor option, the screen's scale is used")
        #expect(report["givenScale"] as? Double == 3, "a scaleFactor option wins")
    }

    @Test func aFourHundredFrameGIFPlaysThroughInBoundedMemory() async throws {
        try await withTestHTTPServer { server in
            // 400 frames of 200 x 200 at 20 ms: 64 MB of pixels if all were held at once.
            let frameCount = 400
            let frames = (0..<frameCount).map { index in
                ImageFrame(
                    pixels: GalleryWindowTests.pixels(RGB(index % 256, (index * 3) % 256, 128), count: 200 * 200), duration: 0.02)
            }
            let gif = try KingfisherImage(width: 200, height: 200, frames: frames).encoded(as: .GIF)
            server.serve(gif, as: "long.gif")
            let run = try await withXvfb { try await $0.run(Self.probe, ["animation", server.url("/image/long.gif").absoluteString]) }
            #expect(run.status == 0, "the probe failed: \(run.stderr)")
            let report = try run.json()
            #expect(report["frameCount"] as? Int == frameCount)
            let shown = report["framesShown"] as? Int ?? 0
            // A tick may move past several frames at once, so not every frame is seen by the probe.
            #expect(shown > frameCount / 2, "only \(shown) of \(frameCount) frames were shown")
            let peak = report["peakRSSBytes"] as? Int ?? .max
            #expect(peak < (120 << 20) * SanitizerAllowance.memory, "peak RSS \(peak >> 20) MB")
            print("400-frame GIF: \(shown) frames shown, peak RSS \(peak >> 20) MB")
        }
    }
}
