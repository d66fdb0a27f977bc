// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher

/// Runs one piece of work per key at a time: callers asking for a key already being worked on
/// wait for that work's result instead of starting their own.
///
/// The work runs in its own task, so a caller that goes away (a client that disconnects) does
/// not end it for the others; once no caller waits for it, it is cancelled (its fetch stopped,
/// its slot given back), and the next caller for the key starts afresh.
final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Flight {
        var task: Task<Value, any Error>
        var waiters: Int
    }

    // Guarded by `running`'s lock.
    private let running = Locked<[Key: Flight]>([:])

    init() {}

    /// The value of `work` for `key`: started now, or joined if another caller started it.
    ///
    /// - Returns: The value, and whether this caller joined work already under way.
    /// - Throws: What the work throws; `CancellationError` when every caller went away.
    func value(for key: Key, work: @escaping @Sendable () async throws -> Value) async throws -> (Value, joined: Bool) {
        let (task, joined) = running.withLock { flights -> (Task<Value, any Error>, Bool) in
            if var flight = flights[key] {
                flight.waiters += 1
                flights[key] = flight
                return (flight.task, true)
            }
            let task = Task { try await work() }
            flights[key] = Flight(task: task, waiters: 1)
            return (task, false)
        }
        if !joined {
            // Removed once done, whatever the outcome, unless a newer flight took the key.
            Task { [running] in
                _ = await task.result
                running.withLock { flights in
                    if flights[key]?.task == task { flights[key] = nil }
                }
            }
        }
        return try await withTaskCancellationHandler {
            (try await task.value, joined)
        } onCancel: {
            leave(key, task)
        }
    }

    /// A caller of `task` went away: the last one cancels it.
    private func leave(_ key: Key, _ task: Task<Value, any Error>) {
        let abandoned = running.withLock { flights -> Bool in
            guard var flight = flights[key], flight.task == task else { return false }
            flight.waiters -= 1
            guard flight.waiters == 0 else {
                flights[key] = flight
                return false
            }
            flights[key] = nil
            return true
        }
        if abandoned { task.cancel() }
    }

    /// How many keys are being worked on.
    var count: Int { running.withLock { $0.count } }
}
