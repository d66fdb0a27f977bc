// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// What a progressive JPEG preview costs against decoding the whole image: each preview decodes
/// the scans received so far at a quarter of the resolution, so none should cost as much as the
/// full decode it stands in for. Prints the medians `progressive_full_decode_ms_per_iter` and
/// `progressive_slowest_preview_ms_per_iter` (the costliest scan's), and one
/// `progressive_preview_scan_<N>_ms` line per scan.
enum ProgressiveBenchmark {
    static func run(jpeg data: Data, iterations: Int) throws {
        var tracker = JPEGScanTracker()
        tracker.advance(over: data)
        guard tracker.isProgressive == true, tracker.scanStarts.count >= 2 else {
            fail("progressive needs a progressive JPEG (this one has \(tracker.scanStarts.count) scan(s))")
        }
        let full = try medianMilliseconds(iterations) { _ = try KingfisherImage.decode(data: data) }
        var slowest = 0.0
        for (index, start) in tracker.scanStarts.enumerated().dropFirst() {
            let prefix = Data(data.prefix(start))
            let preview = try medianMilliseconds(iterations) {
                guard
                    ProgressivePreview.image(
                        of: prefix, scanCount: index, width: tracker.width, height: tracker.height,
                        isBlur: false, options: ImageCreatingOptions()) != nil
                else {
                    fail("scan \(index): the preview did not decode")
                }
            }
            print("progressive_preview_scan_\(index)_ms=\(String(format: "%.3f", preview))")
            slowest = max(slowest, preview)
        }
        print("progressive_full_decode_ms_per_iter=\(String(format: "%.3f", full))")
        print("progressive_slowest_preview_ms_per_iter=\(String(format: "%.3f", slowest))")
    }

    /// The median of `iterations` timings of `work` in milliseconds, after one warm-up.
    private static func medianMilliseconds(_ iterations: Int, _ work: () throws -> Void) throws -> Double {
        try work()
        var times: [Double] = []
        for _ in 0..<max(1, iterations) {
            let start = ContinuousClock.now
            try work()
            times.append((ContinuousClock.now - start).seconds * 1000)
        }
        return median(times)
    }
}
