// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher

/// Runs one piece of work per key at a time: callers asking for a key already being worked on
/// wait for that work's result instead of starting their own.
///
/// The work runs in its own task, so a caller that goes away (a client that disconnects) does
/// not cancel it for the others; its result is cached when it ends anyway.
final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    // Guarded by `running`'s lock.
    private let running = Locked<[Key: Task<Value, any Error>]>([:])

    init() {}

    /// The value of `work` for `key`: started now, or joined if another caller started it.
    ///
    /// - Returns: The value, and whether this caller joined work already under way.
    func value(for key: Key, work: @escaping @Sendable () async throws -> Value) async throws -> (Value, joined: Bool) {
        let (task, joined) = running.withLock { tasks -> (Task<Value, any Error>, Bool) in
            if let task = tasks[key] { return (task, true) }
            let task = Task { try await work() }
            tasks[key] = task
            return (task, false)
        }
        if !joined {
            // Removed once done, by the caller that started it, whatever the outcome.
            Task { [running] in
                _ = await task.result
                running.withLock { _ = $0.removeValue(forKey: key) }
            }
        }
        return (try await task.value, joined)
    }

    /// How many keys are being worked on.
    var count: Int { running.withLock { $0.count } }
}
