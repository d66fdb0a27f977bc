// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch

extension DispatchQueue {
    /// Runs `work` on this queue and returns what it returns, or throws what it throws: for CPU
    /// work (decoding, processing, encoding) that would otherwise hold one of the cooperative
    /// pool's few threads, which cached answers and I/O need.
    package func perform<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            self.async { continuation.resume(returning: Result(catching: work)) }
        }
        return try result.get()
    }
}
