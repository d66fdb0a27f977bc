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
}

extension DispatchQueue {
    /// ``CallbackQueue/perform(_:)`` on this queue.
    package func perform<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        try await CallbackQueue.dispatch(self).perform(work)
    }
}
