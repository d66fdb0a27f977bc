// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher

private let holdsOneAtATime = DispatchSemaphore(value: 1)

/// What ``withCooperativePoolHeld(_:)`` saw.
package struct CooperativePoolHold<T: Sendable>: Sendable {
    /// What the body returned.
    package var value: T
    /// Whether every thread of the cooperative pool stayed held until the body returned: a task
    /// enqueued on the pool after the holders started did not run before then. When `false` the
    /// pool was wider than the holders and the hold proved nothing.
    package var poolWasHeld: Bool
}

/// Runs blocking `body` on a thread of its own while every thread of Swift's cooperative pool
/// is held by a task that blocks, as long CPU-bound work (or a blocking call) elsewhere in a
/// process holds them: code that needs the pool to make progress waits until `body` returns.
///
/// The holders are as many as the pool's threads (the active processor count, as the runtime
/// sizes it); they are waited for until all run, then a probe task is enqueued behind them, and
/// whether it ran before `body` returned says whether the hold was complete. Holds are taken one
/// at a time: two half-started holds would each wait for threads the other has.
package func withCooperativePoolHeld<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> CooperativePoolHold<T> {
    try await offThePool {
        holdsOneAtATime.wait()
        defer { holdsOneAtATime.signal() }
        let width = ProcessInfo.processInfo.activeProcessorCount
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<width {
            Task.detached {
                started.signal()
                release.wait()
            }
        }
        for _ in 0..<width { started.wait() }
        let probeRan = Locked(false)
        Task.detached { probeRan.withLock { $0 = true } }
        let value = body()
        let heldThroughout = !probeRan.withLock { $0 }
        for _ in 0..<width { release.signal() }
        return CooperativePoolHold(value: value, poolWasHeld: heldThroughout)
    }
}
