// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch

/// Whether code runs on the main dispatch queue. On Linux the main queue may be drained by a
/// thread other than the main thread (after `dispatchMain()`), so `Thread.isMainThread` cannot
/// tell; a queue-specific value can.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// True on the main queue (and so on the main actor).
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
