// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch

/// A task executor with threads of its own, for the asynchronous code that a download or a
/// retrieval waits for: redirect handlers, the delegate's response check, authentication
/// responders, asynchronous request modifiers, data providers, the shared cache level.
///
/// Swift's cooperative pool has one thread per core, and whatever runs there (a long decode, a
/// blocking call, a busy test suite, a busy service) can hold every thread for minutes. A task
/// that a download needs must not wait behind that work while the download's duration limit runs
/// out: tasks started here run, and resume after each `await`, on a concurrent dispatch queue of
/// the library's, whose threads libdispatch adds when the ones it has are busy. Code isolated to
/// an actor (the main actor included) still runs on that actor.
package final class OffPoolExecutor: TaskExecutor {
    /// The one executor every such task shares.
    package static let shared = OffPoolExecutor()

    private let queue = DispatchQueue(
        label: "com.onevcat.Kingfisher.OffPoolExecutor", qos: .userInitiated,
        attributes: .concurrent)

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Starts `work` in a new unstructured task that runs here (see the type's notes).
    @discardableResult
    package static func task<Success: Sendable>(_ work: sending @escaping () async -> Success) -> Task<Success, Never> {
        Task(executorPreference: shared, operation: work)
    }
}
