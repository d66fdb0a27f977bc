// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Synchronization

/// Stops long pixel work early once nobody waits for it (a cancelled retrieval, a processing
/// past its deadline): the pixel kernels check it between blocks of rows (``ParallelRows``) and
/// skip what is left, and whoever installed it throws away the unfinished image.
///
/// Processors run synchronously on dispatch queues, out of reach of Swift's task cancellation,
/// so the interruption is installed for the thread that runs them.
package final class ProcessingInterruption: Sendable {
    private let interrupted = Atomic(false)

    package init() {}

    /// Asks the work to stop: any thread, any time.
    package func interrupt() {
        interrupted.store(true, ordering: .relaxed)
    }

    /// Whether ``interrupt()`` was called.
    package var isInterrupted: Bool { interrupted.load(ordering: .relaxed) }

    /// Runs `body` with this interruption installed for the current thread.
    package func installed<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let dictionary = Thread.current.threadDictionary
        let previous = dictionary[Self.key]
        dictionary[Self.key] = self
        defer { dictionary[Self.key] = previous }
        return try body()
    }

    /// The interruption installed for the current thread, if any.
    static var current: ProcessingInterruption? { Thread.current.threadDictionary[key] as? ProcessingInterruption }

    private static let key = "com.kingfisher-linux.ProcessingInterruption"
}
