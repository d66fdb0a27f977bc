// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch
import Foundation

/// Splits row ranges of an image kernel across the machine's cores. Small jobs run inline:
/// handing a few thousand pixels to another thread costs more than it saves.
enum ParallelRows {
    /// Below this many bytes of work a kernel runs on the calling thread. 256 KiB.
    static let minimumParallelBytes = 1 << 18

    private static let coreCount = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Calls `body` with disjoint ranges covering `0..<count`, in parallel when `bytes` (the
    /// work's size) is large enough. `body` must only write data owned by its range.
    static func forEach(_ count: Int, bytes: Int, _ body: (Range<Int>) -> Void) {
        let chunks = bytes >= minimumParallelBytes ? min(coreCount, count) : 1
        guard chunks > 1 else {
            if count > 0 { body(0..<count) }
            return
        }
        withoutActuallyEscaping(body) { escapable in
            // Safe to share: every chunk gets a disjoint range, kernels write only inside their
            // range, and concurrentPerform returns only after every chunk has finished.
            nonisolated(unsafe) let work = escapable
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let start = count * chunk / chunks
                let end = count * (chunk + 1) / chunks
                if start < end { work(start..<end) }
            }
        }
    }
}
