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

    /// Work between two looks at the thread's ``ProcessingInterruption``: about 4 MiB, a few
    /// milliseconds.
    static let interruptionCheckBytes = 1 << 22

    /// Calls `body` with disjoint ranges covering `0..<count`, in parallel when `bytes` (the
    /// work's size) is large enough. `body` must only write data owned by its range.
    ///
    /// Under a ``ProcessingInterruption`` the ranges are blocks of rows, and once it is
    /// interrupted the blocks left are skipped (their rows stay unwritten).
    static func forEach(_ count: Int, bytes: Int, _ body: (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let interruption = ProcessingInterruption.current
        let blockRows = interruption == nil ? count : max(1, interruptionCheckBytes / max(1, bytes / count))
        let chunks = bytes >= minimumParallelBytes ? min(coreCount, count) : 1
        guard chunks > 1 else {
            inBlocks(0..<count, of: blockRows, until: interruption, body)
            return
        }
        withoutActuallyEscaping(body) { escapable in
            // Safe to share: every chunk gets a disjoint range, kernels write only inside their
            // range, and concurrentPerform returns only after every chunk has finished.
            nonisolated(unsafe) let work = escapable
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let start = count * chunk / chunks
                let end = count * (chunk + 1) / chunks
                if start < end { inBlocks(start..<end, of: blockRows, until: interruption, work) }
            }
        }
    }

    /// Calls `work` on `range` in blocks of `rows`, until `interruption` is interrupted.
    private static func inBlocks(
        _ range: Range<Int>, of rows: Int, until interruption: ProcessingInterruption?, _ work: (Range<Int>) -> Void
    ) {
        var start = range.lowerBound
        while start < range.upperBound {
            if interruption?.isInterrupted == true { return }
            let end = min(range.upperBound, start + rows)
            work(start..<end)
            start = end
        }
    }
}
