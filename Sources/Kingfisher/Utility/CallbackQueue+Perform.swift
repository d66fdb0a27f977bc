// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch

extension CallbackQueue {
    /// Runs `work` on this queue and returns what it returns, or throws what it throws: for CPU
    /// work (decoding, processing, encoding) that would otherwise hold one of the cooperative
    /// pool's few threads, which cached answers and I/O need. (`.untouch` runs it in place.)
    package func perform<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            execute { continuation.resume(returning: Result(catching: work)) }
        }
        return try result.get()
    }

    /// ``perform(_:)`` under a ``ProcessingInterruption`` that the calling task's cancellation
    /// interrupts: its pixel loops stop early, and the half-made result is dropped (`nil`).
    package func performInterruptibly<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value? {
        let interruption = ProcessingInterruption()
        let result: Result<Value, Failure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                execute { continuation.resume(returning: Result { () throws(Failure) in try interruption.installed(work) }) }
            }
        } onCancel: {
            interruption.interrupt()
        }
        let value = try result.get()
        return interruption.isInterrupted ? nil : value
    }
}

extension DispatchQueue {
    /// ``CallbackQueue/perform(_:)`` on this queue.
    package func perform<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        try await CallbackQueue.dispatch(self).perform(work)
    }

    /// ``CallbackQueue/performInterruptibly(_:)`` on this queue.
    package func performInterruptibly<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value? {
        try await CallbackQueue.dispatch(self).performInterruptibly(work)
    }
}
