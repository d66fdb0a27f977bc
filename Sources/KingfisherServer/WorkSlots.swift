// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher

/// A fixed number of slots for work, and a bounded line of callers waiting for one: past the
/// line's length, callers are turned away at once (the service answers `503`).
///
/// Waiting callers get slots in arrival order. A caller cancelled while waiting leaves the line
/// (the service's callers are single-flight tasks, cancelled when no client waits for them).
final class WorkSlots: Sendable {
    /// Thrown to a caller when every slot is taken and the line is full.
    struct Full: Error {}

    private struct State {
        var free: Int
        var line: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    /// The number of slots.
    let slotCount: Int
    /// The most callers that may wait.
    let lineLimit: Int
    // Guarded by `state`'s lock.
    private let state: Locked<State>

    /// Told the waiting and busy counts after every change, under the lock so that reports
    /// arrive in order: it must be quick (a gauge's atomic store).
    private let onChange: @Sendable (_ waiting: Int, _ busy: Int) -> Void

    init(slots: Int, lineLimit: Int, onChange: @escaping @Sendable (_ waiting: Int, _ busy: Int) -> Void = { _, _ in }) {
        slotCount = max(1, slots)
        self.lineLimit = max(0, lineLimit)
        state = Locked(State(free: max(1, slots)))
        self.onChange = onChange
    }

    private func reportCounts() {
        state.withLock { onChange($0.line.count, slotCount - $0.free) }
    }

    /// Callers waiting for a slot.
    var waiting: Int { state.withLock { $0.line.count } }
    /// Slots in use.
    var busy: Int { state.withLock { slotCount - $0.free } }

    /// Takes a slot, waiting in line for one if need be; ``release()`` gives it back.
    ///
    /// - Throws: ``Full`` when the line is full, `CancellationError` when cancelled in line.
    func acquire() async throws {
        enum Decision {
            case run
            case wait(UInt64)
            case full
        }
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = Task.isCancelled
                let decision = state.withLock { state -> Decision in
                    if cancelled { return .full }
                    if state.free > 0 {
                        state.free -= 1
                        return .run
                    }
                    guard state.line.count < lineLimit else { return .full }
                    state.line.append((id, continuation))
                    return .wait(id)
                }
                reportCounts()
                switch decision {
                case .run: continuation.resume()
                case .full: continuation.resume(throwing: cancelled ? CancellationError() : Full())
                case .wait: break
                }
            }
        } onCancel: {
            let removed = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.line.firstIndex(where: { $0.id == id }) else { return nil }
                return state.line.remove(at: index).continuation
            }
            removed?.resume(throwing: CancellationError())
            reportCounts()
        }
    }

    /// Gives back a slot ``acquire()`` took.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.line.isEmpty else {
                state.free += 1
                return nil
            }
            return state.line.removeFirst().continuation
        }
        reportCounts()
        next?.resume()
    }
}
