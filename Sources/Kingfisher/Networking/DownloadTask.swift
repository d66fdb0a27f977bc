// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// One caller's share of a download, as Kingfisher's `DownloadTask`. Cancelling it ends only
/// this caller (with `taskCancelled`); the HTTP request stops when no caller is left.
///
/// A retrieval from an ``ImageDataProvider`` returns one too, as in Kingfisher: cancelling it
/// cancels the provider's load, which then ends with `dataProviderCancelled`.
public final class DownloadTask: Sendable {
    private struct State {
        var operation: DownloadOperation?
        /// Stops a data provider's load and its retrieval (for a provider's task).
        var stopProvider: (@Sendable () -> Void)?
        var cancelled = false
        var priority: Float
    }

    private let state: Locked<State>
    /// This caller's token within the shared download.
    public let token: Int
    /// ``token``, by Kingfisher's name (optional there, until its session task exists).
    public var cancelToken: Int? { token }
    /// The URL being downloaded.
    public let url: URL?

    init(token: Int, url: URL?, priority: Float) {
        self.token = token
        self.url = url
        state = Locked(State(priority: Self.valid(priority)))
    }

    /// The task of a provider's load (token 0, the provider's content URL); cancelling it calls
    /// `stop`, which ends the load and its retrieval.
    init(url: URL?, stop: @escaping @Sendable () -> Void) {
        token = 0
        self.url = url
        state = Locked(State(stopProvider: stop, priority: ImageDownloader.defaultPriority))
    }

    /// Priorities are 0…1; anything else (NaN included) is clamped or replaced by the default.
    static func valid(_ priority: Float) -> Float {
        priority.isNaN ? ImageDownloader.defaultPriority : min(max(priority, 0), 1)
    }

    /// Joins the shared download; returns `false` when the task was already cancelled.
    func link(_ operation: DownloadOperation) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.operation = operation
            return true
        }
    }

    /// Whether the task has joined its download (or drives a provider's load): `false` while an
    /// asynchronous request modifier still works on the request, as Kingfisher's before its
    /// session task exists.
    public var isInitialized: Bool { state.withLock { $0.operation != nil || $0.stopProvider != nil } }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// The download's priority, 0…1 (default ``ImageDownloader/defaultPriority``, 0.5). Raising
    /// it while the download waits for a slot moves it ahead of lower ones.
    public var priority: Float {
        get { state.withLock { $0.priority } }
        set {
            let newValue = Self.valid(newValue)
            let operation = state.withLock { state -> DownloadOperation? in
                state.priority = newValue
                return state.operation
            }
            operation?.raisePriority(to: newValue)
        }
    }

    /// Ends this caller's share: its completion gets `taskCancelled`; the request stops when no
    /// other caller waits for it.
    public func cancel() {
        let (operation, stopProvider) = state.withLock { state -> (DownloadOperation?, (@Sendable () -> Void)?) in
            guard !state.cancelled else { return (nil, nil) }
            state.cancelled = true
            return (state.operation, state.stopProvider)
        }
        operation?.cancel(caller: self)
        stopProvider?()
    }
}
