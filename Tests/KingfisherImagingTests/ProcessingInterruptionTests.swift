// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Synchronization
import Testing

@testable import KingfisherImaging

/// Pixel loops stop between blocks of rows once their thread's interruption is interrupted.
@Suite struct ProcessingInterruptionTests {
    @Test func rowsAfterAnInterruptionAreSkipped() {
        let interruption = ProcessingInterruption()
        let rowsDone = Atomic(0)
        interruption.installed {
            // 64 MiB of work over 1024 rows: blocks of 64 rows (4 MiB), on every core.
            ParallelRows.forEach(1024, bytes: 1 << 26) { rows in
                if rowsDone.add(rows.count, ordering: .relaxed).newValue >= 128 { interruption.interrupt() }
            }
        }
        #expect(interruption.isInterrupted)
        #expect(rowsDone.load(ordering: .relaxed) < 1024, "the blocks after the interruption ran")
    }

    @Test func withoutAnInterruptionEveryRowRuns() {
        let rowsDone = Atomic(0)
        ParallelRows.forEach(1024, bytes: 1 << 26) { rows in rowsDone.add(rows.count, ordering: .relaxed) }
        #expect(rowsDone.load(ordering: .relaxed) == 1024)
    }
}
