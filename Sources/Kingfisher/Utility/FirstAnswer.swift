// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Waits for the answer `start` passes to its callback: the async bridge of Kingfisher's
/// completion-handler forms. A callback called again is ignored (where a bare continuation
/// would trap), since caller code written for Kingfisher may do it.
func firstAnswer<Answer: Sendable>(_ start: (@escaping @Sendable (Answer) -> Void) -> Void) async -> Answer {
    await withCheckedContinuation { continuation in
        let pending = Locked<CheckedContinuation<Answer, Never>?>(continuation)
        start { answer in
            pending.withLock { waiting in
                defer { waiting = nil }
                return waiting
            }?.resume(returning: answer)
        }
    }
}
