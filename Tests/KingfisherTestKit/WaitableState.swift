// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

@testable import Kingfisher

/// State behind a lock that a test can wait on: every change re-checks the waiting conditions,
/// and a waiter resumes as soon as its condition holds (at once when it already does).
///
/// Waiting is by continuation, never by sleeping or polling. A waiting task that is cancelled
/// (for example when its suite's time limit runs out) resumes at once with `CancellationError`,
/// so a test waiting for something that never happens fails instead of hanging the run.
package final class WaitableState<State: Sendable>: Sendable {
    /// One suspended `wait`: `resumption` returns the call that resumes it (run outside the lock)
    /// once the state satisfies the waiter, else `nil`.
    private struct Waiter: Sendable {
        let id: Int
        let resumption: @Sendable (State) -> (@Sendable () -> Void)?
        let cancel: @Sendable () -> Void
    }

    private struct Box {
        var state: State
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let box: Locked<Box>

    package init(_ state: State) {
        box = Locked(Box(state: state))
    }

    /// The state now.
    package var current: State { box.withLock { $0.state } }

    /// Reads the state under the lock.
    package func read<T>(_ body: (State) throws -> T) rethrows -> T {
        try box.withLock { try body($0.state) }
    }

    /// Changes the state under the lock, then resumes the waiters whose conditions now hold.
    @discardableResult
    package func update<T>(_ body: (inout State) -> T) -> T {
        let (result, ready) = box.withLock { box -> (T, [@Sendable () -> Void]) in
            let result = body(&box.state)
            var ready: [@Sendable () -> Void] = []
            box.waiters.removeAll { waiter in
                guard let resume = waiter.resumption(box.state) else { return false }
                ready.append(resume)
                return true
            }
            return (result, ready)
        }
        for resume in ready { resume() }
        return result
    }

    /// Waits until `extract` finds a value in the state, and returns it.
    ///
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    package func waitForValue<T: Sendable>(_ extract: @escaping @Sendable (State) -> T?) async throws -> T {
        let id = box.withLock { box -> Int in
            box.nextID += 1
            return box.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                add(
                    Waiter(
                        id: id,
                        resumption: { state in
                            guard let value = extract(state) else { return nil }
                            return { continuation.resume(returning: value) }
                        },
                        cancel: { continuation.resume(throwing: CancellationError()) }))
            }
        } onCancel: {
            removeWaiter(id)?.cancel()
        }
    }

    /// Resumes `waiter` at once when the task is cancelled or its condition holds, else keeps it.
    /// Decided under the lock that `removeWaiter` takes: either a cancelled task's waiter is never
    /// kept, or the cancellation handler finds and removes it.
    private func add(_ waiter: Waiter) {
        let resumeNow = box.withLock { box -> (@Sendable () -> Void)? in
            if Task.isCancelled { return waiter.cancel }
            if let resume = waiter.resumption(box.state) { return resume }
            box.waiters.append(waiter)
            return nil
        }
        resumeNow?()
    }

    private func removeWaiter(_ id: Int) -> Waiter? {
        box.withLock { box -> Waiter? in
            guard let index = box.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return box.waiters.remove(at: index)
        }
    }

    /// Waits until `condition` holds, and returns the state that satisfied it.
    @discardableResult
    package func wait(until condition: @escaping @Sendable (State) -> Bool) async throws -> State {
        try await waitForValue { condition($0) ? $0 : nil }
    }
}
