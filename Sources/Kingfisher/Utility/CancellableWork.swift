// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Awaits callback-based work that returns a handle to cancel it: cancelling the calling task
/// cancels the work (also when it is cancelled while the work is being started). The work's
/// own completion, cancellation included, is what this returns or throws.
///
/// - Parameters:
///   - start: Starts the work with its completion; returns its handle, if any.
///   - cancel: Cancels the work through its handle.
func withCancellableWork<Value: Sendable, Handle: Sendable>(
    start: (@escaping @Sendable (Result<Value, KingfisherError>) -> Void) -> Handle?,
    cancel: @escaping @Sendable (Handle) -> Void
) async throws -> Value {
    let running = Locked<Handle?>(nil)
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let handle = start { continuation.resume(with: $0) }
            running.withLock { $0 = handle }
            if Task.isCancelled, let handle { cancel(handle) }
        }
    } onCancel: {
        if let handle = running.withLock({ $0 }) { cancel(handle) }
    }
}
